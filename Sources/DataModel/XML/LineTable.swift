import Foundation

/// Maps byte offsets of a UTF-8 document to 1-based lines and columns.
///
/// Columns count Unicode scalars, as editors and the Swift compiler do, so a line holding `é`
/// still points at the right character after it. A byte order mark takes no column: editors do
/// not show it.
package struct LineTable: Sendable {
  private let bytes: [UInt8]
  private let lineStarts: [Int]

  package init(bytes: [UInt8]) {
    self.bytes = bytes
    var starts = [0]
    starts.reserveCapacity(bytes.count / 40 + 1)
    bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      var position = 0
      while position < buffer.count,
        let found = memchr(base + position, Int32(UInt8(ascii: "\n")), buffer.count - position)
      {
        position = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
        starts.append(position)
      }
    }
    self.lineStarts = starts
  }

  /// The 1-based line and column of a byte offset.
  package func position(of offset: Int) -> (line: Int, column: Int) {
    let clamped = max(0, min(offset, bytes.count))
    var low = 0
    var high = lineStarts.count - 1
    while low < high {
      let mid = (low + high + 1) / 2
      if lineStarts[mid] <= clamped { low = mid } else { high = mid - 1 }
    }
    var column = 1
    var index = lineStarts[low]
    if low == 0, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = min(3, clamped) }
    while index < clamped {
      if bytes[index] & 0xC0 != 0x80 { column += 1 }
      index += 1
    }
    // A position inside a multi-byte scalar counts as that scalar.
    if clamped < bytes.count, bytes[clamped] & 0xC0 == 0x80, column > 1 { column -= 1 }
    return (low + 1, column)
  }
}
