# Which Home Manager option wrote each value of the generated agyconf.json:
# a map from JSON pointer (RFC 6901) to option path, which agyconf reads
# with --option-paths to lead each diagnostic with the option
# (`programs.agyconf.mcpServers.github.args[1]: …`) instead of a place in a
# file you never wrote. Builtins only, like ../model.nix.
#
#   of { model; base; extraConfig; sources; root; }
#     model        the model as written (../model.nix, extraConfig merged)
#     base         the same without extraConfig: what the options made
#     sources      JSON pointer -> option path of a value the options did
#                  not write themselves (a server taken from programs.mcp,
#                  a tool path from a package option): it and everything
#                  below it are named from there
#
# Everything else is named by rule: block types and attributes by the
# options' camelCase names (server_url is url, a handler list handlers),
# labels and the keys of maps (env, headers, settings, …) as written, list
# items [i], a freeform member (extra) by its own name. What extraConfig
# wrote is named by its own raw keys.
let
  inherit (builtins)
    attrNames
    concatLists
    concatStringsSep
    elem
    elemAt
    filter
    genList
    head
    isAttrs
    isList
    isString
    length
    listToAttrs
    match
    replaceStrings
    split
    substring
    tail
    ;

  # programs.agyconf.mcpServers."my.server".env.X
  showName = n: if match "[A-Za-z_][A-Za-z0-9_'-]*" n != null then n else "\"${n}\"";
  sub = path: n: "${path}.${showName n}";
  escSeg = replaceStrings [ "~" "/" ] [ "~0" "~1" ];

  upper = [ "A" "B" "C" "D" "E" "F" "G" "H" "I" "J" "K" "L" "M" "N" "O" "P" "Q" "R" "S" "T" "U" "V" "W" "X" "Y" "Z" ];
  lower = [ "a" "b" "c" "d" "e" "f" "g" "h" "i" "j" "k" "l" "m" "n" "o" "p" "q" "r" "s" "t" "u" "v" "w" "x" "y" "z" ];
  camel =
    k:
    let
      parts = filter isString (split "_" k);
    in
    { server_url = "url"; handler = "handlers"; tool = "tools"; }.${k}
      or (head parts + concatStringsSep "" (map (s: replaceStrings lower upper (substring 0 1 s) + substring 1 (-1) s) (tail parts)));

  blocks = { mcp_server = "mcpServers"; hook = "hooks"; skill = "skills"; rule = "rules"; agent = "agents"; workflow = "workflows"; plugin = "plugins"; };
  # Attributes whose members are keys of your own.
  maps = [ "env" "headers" "tool" "layout" "settings" "tools" ];

  items = f: ptr: opt: v: concatLists (genList (i: f "${ptr}/${toString i}" "${opt}[${toString i}]" (elemAt v i)) (length v));

  of =
    {
      model,
      base ? model,
      extraConfig ? { },
      sources ? { },
      root ? "programs.agyconf",
    }:
    let
      # ctx: how v's members are named: "map" (as written), "fields"
      # (camelCase), "blocks" or "plugins" (labels), or "top", "plugin",
      # "agyconf" (block types, and their own fields).
      pairs =
        ptr: opt0: ctx: v:
        let
          opt = sources.${ptr} or opt0;
          at = k: "${ptr}/${escSeg k}";
          member =
            k: x:
            if ctx == "map" then
              pairs (at k) (sub opt k) "map" x
            else if ctx == "blocks" || ctx == "plugins" then
              pairs (at k) (sub opt k) (if ctx == "plugins" then "plugin" else "fields") x
            else if ctx != "fields" && blocks ? ${k} then
              pairs (at k) "${opt}.${blocks.${k}}" (if k == "plugin" then "plugins" else "blocks") x
            else if k == "extra" then
              pairs (at k) opt "map" x
            else if ctx == "top" && k == "agyconf" then
              pairs (at k) root "agyconf" x
            else if ctx == "top" && k == "harness" then
              pairs (at k) "${root}.harnesses" "fields" x
            else if ctx == "agyconf" && elem k [ "scope" "instance" ] then
              [ { name = at k; value = "${root} (the module writes agyconf.${k})"; } ]
            else
              pairs (at k) "${opt}.${camel k}" (if elem k maps then "map" else "fields") x;
        in
        [ { name = ptr; value = opt; } ]
        ++ (
          if isList v then
            items (p: o: pairs p o ctx) ptr opt v
          else if isAttrs v then
            concatLists (map (k: member k v.${k}) (attrNames v))
          else
            [ ]
        );

      # What extraConfig wrote: its leaves, and the objects the options did
      # not have (objects both have stay the options').
      raw =
        ptr: opt: v:
        [ { name = ptr; value = opt; } ]
        ++ (
          if isList v then
            items raw ptr opt v
          else if isAttrs v then
            concatLists (map (k: raw "${ptr}/${escSeg k}" (sub opt k) v.${k}) (attrNames v))
          else
            [ ]
        );
      extra =
        ptr: opt: v: b:
        if isAttrs v && isAttrs b then
          concatLists (map (k: extra "${ptr}/${escSeg k}" (sub opt k) v.${k} (b.${k} or null)) (attrNames v))
        else
          raw ptr opt v;
    in
    # listToAttrs keeps the first of a name: extraConfig's come first.
    listToAttrs (extra "" "${root}.extraConfig" extraConfig base ++ pairs "" root "top" model);
in
{
  inherit
    showName
    sub
    upper
    lower
    of
    ;
}
