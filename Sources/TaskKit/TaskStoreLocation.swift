import Foundation

/// Where the task list keeps its store: `--store PATH`, else `$TASK_STORE`, else
/// `$XDG_DATA_HOME/task/tasks.sqlite`, else `~/.local/share/task/tasks.sqlite`.
public enum TaskStoreLocation {
  /// The store path for an explicit path (or nil) and an environment.
  public static func resolve(explicit: String?, environment: [String: String]) -> URL {
    if let explicit, !explicit.isEmpty { return URL(fileURLWithPath: explicit) }
    if let path = environment["TASK_STORE"], !path.isEmpty { return URL(fileURLWithPath: path) }
    if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
      return URL(fileURLWithPath: data).appendingPathComponent("task/tasks.sqlite")
    }
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    return URL(fileURLWithPath: home).appendingPathComponent(".local/share/task/tasks.sqlite")
  }
}
