/// A JSON value that cannot be an attribute's value: wrong kind, unparsable, or out of range.
public struct AttributeJSONError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What is wrong, without the entity or property (the caller knows those).
  public var message: String

  /// An error with its message.
  public init(_ message: String) {
    self.message = message
  }

  /// The message.
  public var description: String { message }
}
