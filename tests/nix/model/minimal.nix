# programs.agyconf.enable = true and nothing else: only the agyconf block.
{
  cfg = {
    enable = true;
  };
  tools = { };
}
