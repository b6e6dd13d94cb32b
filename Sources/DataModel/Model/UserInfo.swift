/// The `userInfo` dictionary of a model element: string keys and values, in file order.
public struct UserInfo: Sendable, Hashable, Codable {
  /// One key and its value.
  public struct Entry: Sendable, Hashable, Codable {
    public var key: String
    public var value: String

    public init(key: String, value: String) {
      self.key = key
      self.value = value
    }
  }

  /// The entries in the order the file lists them.
  public var entries: [Entry]

  public init(entries: [Entry] = []) {
    self.entries = entries
  }

  /// Whether there are no entries.
  public var isEmpty: Bool { entries.isEmpty }

  /// The value for a key (the last one, if the file repeats a key).
  public subscript(key: String) -> String? {
    entries.last { $0.key == key }?.value
  }
}
