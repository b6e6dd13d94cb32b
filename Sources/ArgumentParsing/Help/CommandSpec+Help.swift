/// Help text generated from a specification.
extension CommandSpec {
  /// The help text of the subcommand at `path` below this root (`[]` for the root itself),
  /// exactly as `-h` would print it; `nil` if there is no such subcommand.
  public func helpText(for path: [String] = []) -> String? {
    var commands = [self]
    for name in path {
      guard let next = commands[commands.count - 1].subcommand(named: name) else { return nil }
      commands.append(next)
    }
    return HelpFormatter(commands: commands).text
  }
}
