import Foundation

/// What orders a task in the list, read from it once: priority (high first), then due date
/// (earliest first, undated last), then title, then identifier (so that the order is total
/// and the same on every run).
struct ListOrderKey: Comparable {
  var priority: Int16
  var dueDate: Date?
  var title: String
  var id: UUID

  init(_ task: Task) {
    priority = task.priority
    dueDate = task.dueDate
    title = task.title
    id = task.taskID
  }

  static func < (lhs: ListOrderKey, rhs: ListOrderKey) -> Bool {
    if lhs.priority != rhs.priority { return lhs.priority < rhs.priority }
    switch (lhs.dueDate, rhs.dueDate) {
    case (let left?, let right?) where left != right: return left < right
    case (.some, nil): return true
    case (nil, .some): return false
    default: break
    }
    if lhs.title != rhs.title { return lhs.title < rhs.title }
    return lhs.id.uuidString < rhs.id.uuidString
  }
}
