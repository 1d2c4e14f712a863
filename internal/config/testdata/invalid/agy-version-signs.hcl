# agy_version is three unsigned release numbers: strconv.Atoi alone would
# read "+1.-0.+05" as a version.
agyconf {
  agy_version = "+1.-0.+05" # ERROR @17: Invalid agy_version
}
