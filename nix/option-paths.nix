# Which Home Manager option wrote each value of the generated agyconf.json:
# a map from JSON pointer (RFC 6901) to option path, which agyconf reads
# with --option-paths to lead each diagnostic with the option
# (`programs.agyconf.mcpServers.github.args[1]: …`) instead of a place in a
# file the user never wrote. Builtins only, like ../model.nix.
#
#   showName, sub   option-path formatting, shared with ../model.nix
#   of { model, base, extraConfig, sources, root }
#     model        the model as written (../model.nix, extraConfig merged)
#     base         the same without extraConfig: what the options made
#     extraConfig  programs.agyconf.extraConfig
#     sources      JSON pointer -> option path of a value the options did
#                  not write themselves (a server folded from programs.mcp,
#                  a tool path from a package option): the value and
#                  everything below it are named from there
#     root         "programs.agyconf"
#
# Everything else is named by rule: block types and attributes are the
# options' camelCase names (server_url is url, a handler list is handlers),
# labels and the keys of maps (env, headers, settings, layout, tools) as
# written, list items [i].
let
  inherit (builtins)
    attrNames
    concatLists
    elem
    genList
    isAttrs
    isList
    length
    listToAttrs
    match
    replaceStrings
    split
    stringLength
    substring
    toString
    ;

  # programs.agyconf.mcpServers."my.server".env.X
  showName = n: if match "[A-Za-z_][A-Za-z0-9_'-]*" n != null then n else "\"${n}\"";
  sub = path: n: "${path}.${showName n}";

  # RFC 6901: ~ and / escaped.
  escSeg = s: replaceStrings [ "~" "/" ] [ "~0" "~1" ] s;

  # snake_case to camelCase: server_url is the exception.
  camel =
    k:
    let
      parts = builtins.filter builtins.isString (split "_" k);
      up = s: (builtins.replaceStrings
        [ "a" "b" "c" "d" "e" "f" "g" "h" "i" "j" "k" "l" "m" "n" "o" "p" "q" "r" "s" "t" "u" "v" "w" "x" "y" "z" ]
        [ "A" "B" "C" "D" "E" "F" "G" "H" "I" "J" "K" "L" "M" "N" "O" "P" "Q" "R" "S" "T" "U" "V" "W" "X" "Y" "Z" ]
        (substring 0 1 s)) + substring 1 (-1) s;
    in
    if k == "server_url" then
      "url"
    else if k == "handler" then
      "handlers"
    else
      builtins.head parts + builtins.concatStringsSep "" (map up (builtins.tail parts));

  blockOptions = {
    mcp_server = "mcpServers";
    hook = "hooks";
    skill = "skills";
    rule = "rules";
    agent = "agents";
    workflow = "workflows";
    plugin = "plugins";
  };

  # Attributes whose value is a map of the user's own keys.
  maps = [
    "env"
    "headers"
  ];

  # pairs ptr opt ctx v: the [ { name = ptr; value = opt; } ] of v and all
  # below it. ctx says how v's members are named: "map" (keys as written),
  # "fields" (camelCase attributes), "blocks:<type>" (the labels of a block
  # type), or "top", "plugin" (block types, and for a plugin its own
  # fields).
  of =
    {
      model,
      base ? model,
      extraConfig ? { },
      sources ? { },
      root ? "programs.agyconf",
    }:
    let
      pairs =
        ptr: opt0: ctx: v:
        let
          opt = sources.${ptr} or opt0;
          here = [
            {
              name = ptr;
              value = opt;
            }
          ];
          member = k: "${ptr}/${escSeg k}";
          children =
            if isList v then
              concatLists (genList (i: pairs "${ptr}/${toString i}" "${opt}[${toString i}]" ctx (builtins.elemAt v i)) (length v))
            else if isAttrs v then
              concatLists (
                map (
                  k:
                  let
                    x = v.${k};
                  in
                  if ctx == "map" then
                    pairs (member k) "${opt}.${showName k}" "map" x
                  else if substring 0 7 ctx == "blocks:" then
                    pairs (member k) (sub opt k) (if ctx == "blocks:plugin" then "plugin" else "fields") x
                  else if (ctx == "plugin" || ctx == "top") && blockOptions ? ${k} then
                    pairs (member k) "${opt}.${blockOptions.${k}}" "blocks:${k}" x
                  else if ctx == "top" then
                    topPairs k x
                  else if elem k maps then
                    pairs (member k) "${opt}.${k}" "map" x
                  else
                    pairs (member k) "${opt}.${camel k}" "fields" x
                ) (attrNames v)
              )
            else
              [ ];
        in
        here ++ children;

      # Top-level members that are not blocks.
      topPairs =
        k: x:
        let
          ptr = "/${escSeg k}";
        in
        if k == "agyconf" then
          [
            {
              name = ptr;
              value = root;
            }
          ]
          ++ concatLists (
            map (
              f:
              let
                p = "${ptr}/${escSeg f}";
              in
              if f == "layout" then
                pairs p "${root}.layout" "map" x.${f}
              else if f == "scope" || f == "instance" then
                [
                  {
                    name = p;
                    value = "${root} (the module writes agyconf.${f})";
                  }
                ]
              else
                pairs p "${root}.${camel f}" "fields" x.${f}
            ) (attrNames x)
          )
        else if k == "tools" || k == "settings" then
          pairs ptr "${root}.${k}" "map" x
        else if k == "harness" then
          pairs ptr "${root}.harnesses" "fields" x
        else
          pairs ptr "${root}.${camel k}" "fields" x;

      fromOptions = listToAttrs (pairs "" root "top" model);

      # What extraConfig wrote, named by its own raw keys: its leaves, and
      # objects the options did not have (objects both have stay the
      # options').
      raw =
        ptr: opt: v:
        [
          {
            name = ptr;
            value = opt;
          }
        ]
        ++ (
          if isList v then
            concatLists (genList (i: raw "${ptr}/${toString i}" "${opt}[${toString i}]" (builtins.elemAt v i)) (length v))
          else if isAttrs v then
            concatLists (map (k: raw "${ptr}/${escSeg k}" "${opt}.${showName k}" v.${k}) (attrNames v))
          else
            [ ]
        );
      extraPairs =
        ptr: opt: v: b:
        if isAttrs v && isAttrs b then
          concatLists (map (k: extraPairs "${ptr}/${escSeg k}" "${opt}.${showName k}" v.${k} (b.${k} or null)) (attrNames v))
        else
          raw ptr opt v;
      fromExtra = listToAttrs (
        concatLists (
          map (k: extraPairs "/${escSeg k}" "${root}.extraConfig.${showName k}" extraConfig.${k} (base.${k} or null)) (
            attrNames extraConfig
          )
        )
      );
    in
    fromOptions // fromExtra;
in
{
  inherit showName sub of;
}
