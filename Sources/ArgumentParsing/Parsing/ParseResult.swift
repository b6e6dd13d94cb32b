/// What a command line asked for: to run a command, or to see help.
public enum ParseResult: Sendable {
  /// Run the command described by the arguments.
  case run(ParsedArguments)
  /// `-h` or `--help` was given: print this text to standard output and exit with success.
  case help(String)
}
