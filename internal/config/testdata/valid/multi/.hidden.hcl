# Skipped: names starting with a dot are not config files. If it were read,
# this would be an error.
not_a_block {}
