/// A document that is not well-formed XML, or not in an encoding the reader accepts.
package struct XMLSyntaxError: Error, Sendable, Hashable {
  /// Byte offset in the original document where the problem was found.
  package var offset: Int
  package var message: String

  package init(offset: Int, message: String) {
    self.offset = offset
    self.message = message
  }
}
