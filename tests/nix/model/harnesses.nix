# Both harnesses with the profile paths the module adds to tools (for the
# scenarios' user demo: the scenario harnesses-golden of
# tests/nix/scenarios.nix checks that the module generates this golden,
# byte for byte), the way
# programs.xmsg.harnesses.agy and programs.mempalace.harnesses.agy set them.
{
  cfg = {
    enable = true;
    product = "cli";
    harnesses = {
      xmsg = {
        enable = true;
        package = null;
        agyExe = "/home/demo/.nix-profile/bin/agy";
        replyOnly = false;
        legacyHooks = false;
        service.enable = true;
      };
      mempalace = {
        enable = true;
        package = null;
        mode = "plugin";
        wake = true;
        save = true;
        saveInterval = 15;
        stateDir = null;
      };
    };
  };
  tools = {
    agyhook = "/home/demo/.nix-profile/bin/agyhook";
    xmsg = "/home/demo/.nix-profile/bin/xmsg";
    mempalace = "/home/demo/.nix-profile/bin/mempalace";
    mempalace-mcp = "/home/demo/.nix-profile/bin/mempalace-mcp";
  };
}
