# A builtins-only stand-in for the parts of nixpkgs' lib (and Home Manager's
# lib.hm) that nix/module/*.nix, the stand-in Home Manager modules beside
# this file and tests/nix/scenarios.nix use: written here, for CI, which has
# no nixpkgs (the same scenarios run against the real nixpkgs lib and Home
# Manager in the nixlab, tests/nix/lab/). The module system is a small one
# with the semantics those modules rely on: option declarations, typed
# definitions with file names in errors, mkIf/mkMerge/mkOverride pushed
# down to the options, priorities (mkDefault, mkForce, option defaults),
# submodules with `name`, freeform submodules, imports deduplicated by key,
# disabledModules, and the `config`/`options`/`pkgs` fixpoint.
let
  inherit (builtins)
    all
    any
    attrNames
    concatLists
    concatStringsSep
    elem
    elemAt
    filter
    foldl'
    genList
    head
    isAttrs
    isBool
    isFloat
    isFunction
    isInt
    isList
    isPath
    isString
    length
    listToAttrs
    mapAttrs
    match
    replaceStrings
    split
    stringLength
    substring
    tail
    toJSON
    typeOf
    ;

  # --- lists, attrsets, strings -------------------------------------------

  optional = c: x: if c then [ x ] else [ ];
  optionals = c: xs: if c then xs else [ ];
  optionalAttrs = c: a: if c then a else { };
  optionalString = c: s: if c then s else "";
  concatMap = f: xs: concatLists (map f xs);
  concatMapStrings = f: xs: concatStringsSep "" (map f xs);
  concatMapStringsSep = sep: f: xs: concatStringsSep sep (map f xs);
  concatStrings = concatStringsSep "";
  nameValuePair = name: value: { inherit name value; };
  mapAttrs' = f: a: listToAttrs (map (n: f n a.${n}) (attrNames a));
  mapAttrsToList = f: a: map (n: f n a.${n}) (attrNames a);
  filterAttrs = p: a: listToAttrs (concatMap (n: optional (p n a.${n}) (nameValuePair n a.${n})) (attrNames a));
  attrValues = a: map (n: a.${n}) (attrNames a);
  genAttrs = names: f: listToAttrs (map (n: nameValuePair n (f n)) names);
  recursiveUpdate =
    a: b:
    a
    // mapAttrs (
      n: v: if isAttrs v && isAttrs (a.${n} or null) && !(isDerivation v) then recursiveUpdate a.${n} v else v
    ) b;
  unique = foldl' (acc: x: if elem x acc then acc else acc ++ [ x ]) [ ];
  allUnique = xs: length (unique xs) == length xs;
  subtractLists = xs: ys: filter (y: !(elem y xs)) ys;
  last = xs: elemAt xs (length xs - 1);
  init = xs: genList (elemAt xs) (length xs - 1);
  flatten = x: if isList x then concatMap flatten x else [ x ];
  hasPrefix = p: s: substring 0 (stringLength p) s == p;
  hasSuffix =
    x: s:
    let
      ls = stringLength s;
      lx = stringLength x;
    in
    lx <= ls && substring (ls - lx) lx s == x;
  hasInfix = x: s: match ".*${escapeRegex x}.*" s != null;
  escapeRegex = replaceStrings (map (c: c) (stringChars "\\[{()^$?*+|.")) (map (c: "\\${c}") (stringChars "\\[{()^$?*+|."));
  stringChars = s: genList (i: substring i 1 s) (stringLength s);
  removePrefix = p: s: if hasPrefix p s then substring (stringLength p) (-1) s else s;
  removeSuffix = x: s: if hasSuffix x s then substring 0 (stringLength s - stringLength x) s else s;
  splitString = sep: s: filter isString (split (escapeRegex sep) s);
  toUpper = replaceStrings (stringChars "abcdefghijklmnopqrstuvwxyz") (stringChars "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
  toLower = replaceStrings (stringChars "ABCDEFGHIJKLMNOPQRSTUVWXYZ") (stringChars "abcdefghijklmnopqrstuvwxyz");
  isDerivation = x: isAttrs x && (x.type or null) == "derivation";
  getName = x: if isString x then (builtins.parseDrvName x).name else x.pname or (builtins.parseDrvName x.name).name;
  getBin = x: x.bin or x.out or x;
  getExe' = x: y: "${getBin x}/bin/${y}";
  getExe = x: getExe' x (x.meta.mainProgram or (getName x));
  escapeShellArg =
    arg:
    let
      s = toString arg;
    in
    if match "[[:alnum:],._+:@%/-]+" s == null then "'${replaceStrings [ "'" ] [ "'\\''" ] s}'" else s;
  escapeShellArgs = concatMapStringsSep " " escapeShellArg;
  fileContents = f: removeSuffix "\n" (builtins.readFile f);
  trim = s: let m = match "[[:space:]]*(.*[^[:space:]])[[:space:]]*" s; in if m == null then "" else head m;
  isStorePath = s: isString s && hasPrefix "${builtins.storeDir}/" s;
  mkOptionType = t: t;

  # --- option declarations ------------------------------------------------

  mkOption =
    {
      type ? types.unspecified,
      ...
    }@attrs:
    attrs
    // {
      _type = "option";
      inherit type;
    };
  mkEnableOption =
    name:
    mkOption {
      type = types.bool;
      default = false;
      description = "Whether to enable ${name}.";
    };
  literalExpression = text: {
    _type = "literalExpression";
    inherit text;
  };
  literalMD = text: {
    _type = "literalMD";
    inherit text;
  };
  isOption = x: isAttrs x && (x._type or null) == "option";

  # --- definitions --------------------------------------------------------

  mkIf = condition: content: {
    _type = "if";
    inherit condition content;
  };
  mkMerge = contents: {
    _type = "merge";
    inherit contents;
  };
  mkOverride = priority: content: {
    _type = "override";
    inherit priority content;
  };
  mkDefault = mkOverride 1000;
  mkForce = mkOverride 50;
  mkOptionDefault = mkOverride 1500;
  defaultPriority = 100;

  # A definition, pushed down: { file; value; conds; prio; }.
  # flattenDef turns one definition value into the definitions it stands for
  # at the same place: mkMerge's parts, with mkIf's condition and
  # mkOverride's priority carried along.
  flattenDef =
    d:
    let
      v = d.value;
      t = if isAttrs v then v._type or null else null;
    in
    if t == "merge" then
      concatMap (x: flattenDef (d // { value = x; })) v.contents
    else if t == "if" then
      flattenDef (
        d
        // {
          value = v.content;
          conds = d.conds ++ [ v.condition ];
        }
      )
    else if t == "override" then
      flattenDef (
        d
        // {
          value = v.content;
          prio = v.priority;
        }
      )
    else
      [ d ];

  # pushDown d: the definitions of each member of an attrset definition,
  # { <name> = [ defs ]; }, keeping conditions and priorities.
  pushDown =
    defs:
    let
      flat = concatMap flattenDef defs;
      names = unique (concatMap (d: if isAttrs d.value && !(isDerivation d.value) then attrNames d.value else [ ]) flat);
    in
    genAttrs names (
      n: concatMap (d: optional (isAttrs d.value && d.value ? ${n}) (d // { value = d.value.${n}; })) flat
    );

  # discharge d: flattenDef with conditions decided, outermost first, so
  # that the content of a false mkIf is never evaluated.
  discharge =
    d:
    let
      v = d.value;
      t = if isAttrs v then v._type or null else null;
    in
    if !(all (c: c) d.conds) then
      [ ]
    else if t == "merge" then
      concatMap (x: discharge (d // { value = x; })) v.contents
    else if t == "if" then
      (if v.condition then discharge (d // { value = v.content; }) else [ ])
    else if t == "override" then
      discharge (
        d
        // {
          value = v.content;
          prio = v.priority;
        }
      )
    else
      [ d ];

  # The definitions that count: conditions true, the highest priority.
  active =
    defs:
    let
      flat = concatMap discharge defs;
      best = foldl' (m: d: if d.prio < m then d.prio else m) 9999 flat;
    in
    filter (d: d.prio == best) flat;

  showValue = v: if isDerivation v then "<derivation ${v.name or "?"}>" else if isFunction v then "<function>" else toJSON v;
  showDefs = defs: concatMapStrings (d: "\n       - In `${d.file}': ${showValue d.value}") defs;
  showLoc = loc: concatStringsSep "." loc;

  # mergeDefs loc type defs: the value of an option from its active
  # definitions, each checked against the type first.
  mergeDefs =
    loc: type: defs:
    let
      bad = filter (d: !(type.check d.value)) defs;
    in
    if bad != [ ] then
      throw "A definition for option `${showLoc loc}' is not of type `${type.description}'. Definition values:${showDefs bad}"
    else
      type.merge loc defs;

  mergeEqual =
    loc: defs:
    let
      v = (head defs).value;
    in
    if defs == [ ] then
      throw "The option `${showLoc loc}' is used but not defined."
    else if all (d: d.value == v) defs then
      v
    else
      throw "The option `${showLoc loc}' has conflicting definition values:${showDefs defs}";
  mergeOne =
    loc: defs:
    if length defs == 1 then
      (head defs).value
    else
      throw "The option `${showLoc loc}' is defined multiple times while it's expected to be unique.${showDefs defs}";

  # --- types --------------------------------------------------------------

  # A type: description, check, and merge (the value of its definitions;
  # equal definitions by default).
  mkType = t: { merge = mergeEqual; } // t;

  # A JSON value, where members may still be mkIf/mkMerge/mkOverride
  # (pushed down when merged).
  isJSON =
    v:
    let
      t = if isAttrs v then v._type or null else null;
    in
    if t == "override" || t == "if" then
      isJSON v.content
    else if t == "merge" then
      all isJSON v.contents
    else
      # a derivation is a path to nixpkgs' JSON type (string-like)
      v == null || isBool v || isInt v || isFloat v || isString v || isPath v || isDerivation v || (isList v && all isJSON v) || (isAttrs v && all isJSON (attrValues v));

  types = rec {
    unspecified = mkType {
      description = "unspecified value";
      check = _: true;
      merge = loc: defs: (last defs).value;
    };
    raw = mkType {
      description = "raw value";
      check = _: true;
      merge = mergeOne;
    };
    anything = mkType {
      description = "anything";
      check = _: true;
      merge = mergeEqual;
    };
    str = mkType {
      description = "string";
      check = isString;
    };
    lines = mkType {
      description = "strings concatenated with \"\\n\"";
      check = isString;
      merge = loc: defs: concatStringsSep "\n" (map (d: d.value) defs);
    };
    bool = mkType {
      description = "boolean";
      check = isBool;
    };
    int = mkType {
      description = "signed integer";
      check = isInt;
    };
    ints.positive = mkType {
      description = "positive integer, meaning >0";
      check = x: isInt x && x > 0;
    };
    path = mkType {
      description = "path";
      check = x: isPath x || (isString x && substring 0 1 x == "/") || isDerivation x;
      merge = mergeEqual;
    };
    package = mkType {
      description = "package";
      check = x: isDerivation x || isStorePath x;
      merge = mergeOne;
    };
    attrs = mkType {
      description = "attribute set";
      check = isAttrs;
      merge = loc: defs: foldl' (a: d: a // d.value) { } defs;
    };
    json = mkType {
      description = "JSON value";
      check = isJSON;
      merge =
        loc: defs:
        if all (d: isAttrs d.value && !(isDerivation d.value)) defs then
          mapAttrs (n: ds: mergeDefs (loc ++ [ n ]) json (active ds)) (filterAttrs (_: ds: active ds != [ ]) (pushDown defs))
        else if all (d: isList d.value) defs then
          concatMap (d: d.value) defs
        else
          mergeEqual loc defs;
    };
    enum =
      values:
      mkType {
        description = "one of ${concatMapStringsSep ", " toJSON values}";
        check = x: elem x values;
      };
    nullOr =
      t:
      mkType {
        description = "null or ${t.description}";
        check = x: x == null || t.check x;
        merge =
          loc: defs:
          if all (d: d.value == null) defs then
            null
          else if any (d: d.value == null) defs then
            throw "The option `${showLoc loc}' is defined both null and not null, in ${concatMapStringsSep ", " (d: d.file) defs}."
          else
            t.merge loc defs;
      };
    either =
      a: b:
      mkType {
        description = "${a.description} or ${if b ? options then "(submodule)" else b.description}";
        check = x: a.check x || b.check x;
        merge =
          loc: defs:
          if all (d: a.check d.value) defs then
            a.merge loc defs
          else if all (d: b.check d.value) defs then
            b.merge loc defs
          else
            throw "The option `${showLoc loc}' has definitions of both types of `${a.description} or ${b.description}'.";
      };
    oneOf = ts: foldl' either (head ts) (tail ts);
    addCheck = t: f: t // { check = x: t.check x && f x; };
    listOf =
      t:
      mkType {
        description = "list of ${t.description}";
        check = isList;
        merge =
          loc: defs:
          concatLists (
            map (
              d:
              genList (
                i:
                mergeDefs (loc ++ [ "[definition ${toString i}]" ]) t [
                  (d // { value = elemAt d.value i; })
                ]
              ) (length d.value)
            ) defs
          );
      };
    attrsOf =
      t:
      mkType {
        description = "attribute set of ${t.description}";
        check = isAttrs;
        merge =
          loc: defs:
          let
            members = pushDown defs;
            kept = filterAttrs (_: ds: active ds != [ ]) members;
          in
          mapAttrs (n: ds: mergeDefs (loc ++ [ n ]) t (active ds)) kept;
      };
    submoduleWith =
      { modules, ... }:
      mkType {
        description = "submodule";
        options = true;
        check = x: isAttrs x || isFunction x || isPath x;
        merge =
          loc: defs:
          (evalModules {
            modules =
              modules
              ++ map (d: {
                _file = d.file;
                config = d.value;
              }) defs;
            prefix = loc;
            specialArgs.name = last loc;
          }).config;
      };
    submodule = m: submoduleWith { modules = [ m ]; };
  };

  # --- modules ------------------------------------------------------------

  # load: a module (path, function or attrset) as
  # { key; file; options; config; imports; disabled; freeform; }.
  structural = [
    "_file"
    "key"
    "imports"
    "options"
    "config"
    "disabledModules"
    "freeformType"
    "meta"
  ];
  load =
    args: fallbackKey: file: m:
    let
      m1 = if isPath m || isString m then import m else m;
      file1 = if isPath m || isString m then toString m else file;
      key1 = if isPath m || isString m then toString m else fallbackKey;
      v = if isFunction m1 then m1 (args // builtins.intersectAttrs (builtins.functionArgs m1) args) else m1;
      shorthand = !(v ? options || v ? config);
      f = v._file or file1;
    in
    {
      key = toString (v.key or key1);
      file = f;
      imports = v.imports or [ ];
      disabled = v.disabledModules or [ ];
      options = v.options or { };
      config = if shorthand then removeAttrs v structural else v.config or { };
      freeform = v.freeformType or null;
    };

  # collect: every module reached through imports, once per key.
  collect =
    args: modules:
    let
      go =
        seen: todo:
        if todo == [ ] then
          [ ]
        else
          let
            t = head todo;
            m = load args t.key t.file t.module;
            rest = tail todo;
          in
          if elem m.key seen then
            go seen rest
          else
            [ m ]
            ++ go (seen ++ [ m.key ]) (
              genList (i: {
                module = elemAt m.imports i;
                key = "${m.key}:import-${toString i}";
                file = m.file;
              }) (length m.imports)
              ++ rest
            );
    in
    go [ ] (
      genList (i: {
        module = elemAt modules i;
        key = "module-${toString i}";
        file = "<unknown-file>";
      }) (length modules)
    );

  # declarations: the options of every module merged into one tree; an
  # option declared twice is an error.
  mergeOptions =
    loc: decls:
    let
      names = unique (concatMap (d: attrNames d.options) decls);
    in
    genAttrs names (
      n:
      let
        ds = concatMap (d: optional (d.options ? ${n}) (d // { options = d.options.${n}; })) decls;
        opts = filter (d: isOption d.options) ds;
      in
      if opts == [ ] then
        mergeOptions (loc ++ [ n ]) ds
      else if length ds > 1 then
        throw "The option `${showLoc (loc ++ [ n ])}' in `${(elemAt ds 1).file}' is already declared in `${(head ds).file}'."
      else
        (head opts).options // { loc = loc ++ [ n ]; file = (head opts).file; }
    );

  # defsAt: the definitions under an options tree, pushed down until each
  # reaches its option; one nobody declared is an error (or the freeform
  # type's, at the top of a freeform submodule).
  defsAt =
    loc: opts: freeform: defs:
    let
      members = pushDown defs;
    in
    mapAttrs (
      n: ds:
      if opts ? ${n} then
        if isOption opts.${n} then
          { __defs = ds; }
        else
          defsAt (loc ++ [ n ]) opts.${n} null ds
      else if freeform != null then
        { __freeform = ds; }
      else
        throw "The option `${showLoc (loc ++ [ n ])}' does not exist. Definition values:${showDefs ds}"
    ) members;

  evalModules =
    {
      modules,
      prefix ? [ ],
      specialArgs ? { },
    }:
    let
      args =
        specialArgs
        // {
          inherit lib;
          config = result;
          options = declared;
          pkgs = _pkgs;
        };
      # pkgs comes from the outermost evaluation (hm.nix sets it as
      # _module.args.pkgs through specialArgs.pkgsFrom).
      _pkgs = specialArgs.pkgs or (specialArgs.pkgsFrom result);
      all0 = collect args modules;
      disabled = concatMap (m: map toString m.disabled) all0;
      isDisabled = m: any (d: m.key == d || hasSuffix "/${d}" m.key) disabled;
      mods = filter (m: !(isDisabled m)) all0;
      freeform = foldl' (acc: m: if m.freeform != null then m.freeform else acc) null mods;
      declared = mergeOptions prefix mods;
      defTree = defsAt prefix declared freeform (
        map (m: {
          inherit (m) file;
          value = m.config;
          conds = [ ];
          prio = defaultPriority;
        }) mods
      );
      value =
        loc: opt: defs:
        let
          withDefault =
            defs
            ++ optional (opt ? default) {
              file = opt.file;
              value = opt.default;
              conds = [ ];
              prio = 1500;
            };
          act = active withDefault;
          merged = mergeDefs loc opt.type act;
          v = if opt ? apply then opt.apply merged else merged;
        in
        if opt.readOnly or false && length (filter (d: d.prio != 1500) (active defs)) > 1 then
          throw "The option `${showLoc loc}' is read-only, but it's set multiple times."
        else if act == [ ] then
          throw "The option `${showLoc loc}' is used but not defined."
        else
          v;
      build =
        loc: opts: tree:
        mapAttrs (
          n: o:
          let
            t = tree.${n} or null;
          in
          if isOption o then value (loc ++ [ n ]) o (if t == null then [ ] else t.__defs) else build (loc ++ [ n ]) o (if t == null then { } else t)
        ) opts
        // (
          let
            free = filterAttrs (_: t: t ? __freeform) tree;
          in
          mapAttrs (n: t: mergeDefs (loc ++ [ n ]) freeform (active t.__freeform)) (filterAttrs (_: t: active t.__freeform != [ ]) free)
        );
      result = build prefix declared defTree;
    in
    {
      config = result;
      options = declared;
    };

  # --- Home Manager's lib.hm.dag -----------------------------------------

  dag = rec {
    entryBetween = before: after: data: { inherit before after data; };
    entryAfter = entryBetween [ ];
    entryBefore = before: entryBetween before [ ];
    entryAnywhere = entryBetween [ ] [ ];
    # topoSort: entries ordered so that each comes after what it names in
    # `after` and before what it names in `before`; ties by name.
    topoSort =
      entries:
      let
        names = attrNames entries;
        preds = n: filter (m: elem m names) (entries.${n}.after) ++ filter (m: elem n entries.${m}.before) names;
        go =
          done: left:
          if left == [ ] then
            done
          else
            let
              ready = filter (n: all (p: elem p done) (preds n)) left;
            in
            if ready == [ ] then
              throw "Dependency cycle in activation script: ${concatStringsSep ", " left}"
            else
              go (done ++ [ (head ready) ]) (filter (n: n != head ready) left);
      in
      {
        result = map (n: entries.${n} // { name = n; }) (go [ ] names);
      };
  };

  lib = {
    inherit
      optional
      optionals
      optionalAttrs
      optionalString
      concatMap
      concatMapStrings
      concatMapStringsSep
      concatStrings
      concatStringsSep
      concatLists
      nameValuePair
      mapAttrs
      mapAttrs'
      mapAttrsToList
      filterAttrs
      attrNames
      attrValues
      genAttrs
      recursiveUpdate
      unique
      allUnique
      subtractLists
      last
      init
      flatten
      hasPrefix
      hasSuffix
      hasInfix
      removePrefix
      removeSuffix
      splitString
      toUpper
      toLower
      isDerivation
      getName
      getBin
      getExe
      getExe'
      escapeShellArg
      escapeShellArgs
      fileContents
      trim
      isStorePath
      mkOption
      mkOptionType
      mkEnableOption
      literalExpression
      literalMD
      isOption
      mkIf
      mkMerge
      mkOverride
      mkDefault
      mkForce
      mkOptionDefault
      types
      evalModules
      all
      any
      elem
      filter
      foldl'
      head
      tail
      length
      ;
    inherit (builtins)
      replaceStrings
      match
      split
      typeOf
      toJSON
      fromJSON
      isBool
      isInt
      isFunction
      elemAt
      genList
      listToAttrs
      removeAttrs
      stringLength
      substring
      ;
    isPath = builtins.isPath;
    isString = builtins.isString;
    isAttrs = builtins.isAttrs;
    isList = builtins.isList;
    toList = x: if isList x then x else [ x ];
    hm.dag = dag;
    licenses.mit = {
      spdxId = "MIT";
      shortName = "mit";
    };
    fileset = {
      unions = paths: {
        _type = "fileset";
        paths = map toString paths;
      };
      toSource =
        { root, fileset }:
        {
          _type = "toSource";
          root = toString root;
          inherit (fileset) paths;
          outPath = "/nix/store/00000000000000000000000000000000-source";
        };
    };
  };
in
lib
