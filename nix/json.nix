# JSON text in the form agyconf writes its own documents (render.EncodeJSON):
# keys sorted, two-space indent, one member or item a line, a trailing
# newline. The Home Manager module writes its generated agyconf.json this
# way, so that a diagnostic's line names one value (and --option-paths then
# names its option). Builtins only; strings and scalars are builtins.toJSON's,
# so escaping is Nix's own (tests/nix compares the result with the Go
# encoder's on every golden model).
let
  inherit (builtins)
    attrNames
    concatStringsSep
    isAttrs
    isList
    toJSON
    ;

  go =
    indent: v:
    let
      inner = indent + "  ";
    in
    if isAttrs v then
      if v == { } then
        "{}"
      else
        "{\n"
        + concatStringsSep ",\n" (map (k: "${inner}${toJSON k}: ${go inner v.${k}}") (attrNames v))
        + "\n${indent}}"
    else if isList v then
      if v == [ ] then "[]" else "[\n" + concatStringsSep ",\n" (map (x: inner + go inner x) v) + "\n${indent}]"
    else
      toJSON v;
in
{
  # pretty v: the text of v, ending in a newline.
  pretty = v: go "" v + "\n";
}
