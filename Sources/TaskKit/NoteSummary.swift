import Foundation

/// What a view shows of one of a task's notes.
public struct NoteSummary: Sendable, Hashable {
  public var text: String
  /// When the note was added.
  public var createdAt: Date

  public init(text: String, createdAt: Date) {
    self.text = text
    self.createdAt = createdAt
  }

  public init(_ note: Note) {
    self.init(text: note.text, createdAt: note.createdAt)
  }
}
