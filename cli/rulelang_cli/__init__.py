"""The `rulelang` command line: a thin click front end over the rulelang package."""
