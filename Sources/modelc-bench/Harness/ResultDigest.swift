import Foundation

/// What one side of a scenario produced, reduced to a row count and a checksum of every value
/// (FNV-1a over each value's kind and content, in the rows' order): the harness compares both
/// sides' digests and fails the scenario when they differ, as the figures mean nothing unless
/// both did the same work.
struct ResultDigest: Equatable, Codable, CustomStringConvertible {
  private(set) var rows = 0
  private(set) var checksum: UInt64 = 0xcbf2_9ce4_8422_2325

  init() {}

  init(rows: Int, checksum: UInt64) {
    self.rows = rows
    self.checksum = checksum
  }

  var description: String { "\(rows) rows (checksum \(String(checksum, radix: 16)))" }

  /// Starts the next row.
  mutating func nextRow() {
    rows += 1
  }

  mutating func mix(bytes: UnsafeRawBufferPointer) {
    for byte in bytes {
      checksum = (checksum ^ UInt64(byte)) &* 0x100_0000_01b3
    }
  }

  /// A kind tag before each value, so that a nil, an empty text and a zero differ.
  private mutating func mix(kind: UInt8) {
    withUnsafeBytes(of: kind) { mix(bytes: $0) }
  }

  mutating func mix(_ value: Int64?) {
    guard let value else { return mix(kind: 0) }
    mix(kind: 1)
    withUnsafeBytes(of: value) { mix(bytes: $0) }
  }

  mutating func mix(_ value: Double?) {
    guard let value else { return mix(kind: 0) }
    mix(kind: 2)
    withUnsafeBytes(of: value.bitPattern) { mix(bytes: $0) }
  }

  mutating func mix(_ value: String?) {
    guard let value else { return mix(kind: 0) }
    mix(kind: 3)
    var copy = value
    copy.withUTF8 { mix(bytes: UnsafeRawBufferPointer($0)) }
  }

  mutating func mix(_ value: UUID?) {
    guard let value else { return mix(kind: 0) }
    mix(kind: 4)
    withUnsafeBytes(of: value.uuid) { mix(bytes: $0) }
  }

  mutating func mix(_ value: Bool) {
    mix(Int64(value ? 1 : 0))
  }
}

extension ResultDigest {
  /// Throws unless `ours` and `baseline` are the same result.
  static func check(_ scenario: String, ours: ResultDigest, baseline: ResultDigest) throws {
    guard ours == baseline else {
      throw BenchmarkError("\(scenario): our side produced \(ours), the baseline \(baseline): not the same result")
    }
  }
}
