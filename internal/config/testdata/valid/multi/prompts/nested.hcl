# Skipped: subfolders are not searched. If it were read, this would be an error.
not_a_block {}
