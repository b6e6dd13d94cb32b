import Foundation

/// Foldings of runs of non-ASCII scalars, each folded with the reference algorithm once and
/// then reused (real text repeats the same few accented letters). Not thread-safe: one per SQL
/// statement, or the shared one behind a lock (``shared``).
///
/// Keys are the run's bytes themselves, not strings: Swift's `String` equality is canonical
/// equivalence, but case mapping happens before normalization, so canonically equivalent runs
/// may fold differently.
final class PredicateFoldedRuns {
  /// A run of up to 16 bytes and the options.
  private struct Key: Hashable {
    var low: UInt64 = 0
    var high: UInt64 = 0
    var countAndOptions: UInt16
  }

  /// The foldings of single two-byte scalars (U+0080…U+07FF, most accented letters), by
  /// options and scalar, packed: the folding's bytes in the low seven bytes (byte `i` in bits
  /// `8i` to `8i + 7`) and its length plus one in the top byte; 0 for a scalar not folded yet,
  /// and a top byte of `longFolding` for a folding longer than seven bytes (kept in `longer`).
  /// No two-byte scalar folds to more than six bytes in the Unicode tables of Swift 6.3 (the
  /// longest is `ΐ` under `[c]`); the long case keeps a later table's longer folding correct.
  ///
  /// Both tables are read for every non-ASCII run a query folds; an instance is used by one
  /// thread at a time and never reached again during an access, so the run-time exclusivity
  /// checks are left out.
  @exclusivity(unchecked) private var twoByte: [UInt64]
  @exclusivity(unchecked) private var longer: [Key: [UInt8]] = [:]
  private let capacity: Int
  private static let longFolding: UInt64 = 0xFF

  init(capacity: Int = 4096) {
    self.capacity = capacity
    self.twoByte = []
  }

  /// Appends the folding of a run of non-ASCII scalars (UTF-8) to `output`.
  func append(
    _ run: UnsafeBufferPointer<UInt8>, caseInsensitive: Bool, diacriticInsensitive: Bool, to output: inout FoldedBytes
  ) {
    let options = (caseInsensitive ? 1 : 0) | (diacriticInsensitive ? 2 : 0)
    if run.count == 2, run[0] & 0xE0 == 0xC0 {
      let scalar = (Int(run[0] & 0x1F) << 6) | Int(run[1] & 0x3F)
      let slot = options * 0x800 + scalar
      if twoByte.isEmpty { twoByte = Array(repeating: 0, count: 4 * 0x800) }
      var packed = twoByte[slot]
      if packed == 0 {
        packed = Self.pack(Self.fold(run, caseInsensitive, diacriticInsensitive))
        twoByte[slot] = packed
      }
      let lengthPlusOne = packed >> 56
      if lengthPlusOne != Self.longFolding {
        output.append(packed: packed, length: Int(lengthPlusOne) - 1)
        return
      }
    }
    guard run.count <= 16 else {
      Self.fold(run, caseInsensitive, diacriticInsensitive).withUnsafeBufferPointer { output.append($0) }
      return
    }
    var key = Key(countAndOptions: UInt16(run.count) << 2 | UInt16(options))
    for (index, byte) in run.enumerated() {
      if index < 8 {
        key.low |= UInt64(byte) << (8 * UInt64(index))
      } else {
        key.high |= UInt64(byte) << (8 * UInt64(index - 8))
      }
    }
    if let folded = longer[key] {
      folded.withUnsafeBufferPointer { output.append($0) }
      return
    }
    let folded = Self.fold(run, caseInsensitive, diacriticInsensitive)
    if longer.count >= capacity { longer.removeAll(keepingCapacity: true) }
    longer[key] = folded
    folded.withUnsafeBufferPointer { output.append($0) }
  }

  /// A folding of up to seven bytes packed as `twoByte` keeps it; `longFolding` in the top
  /// byte for a longer one.
  private static func pack(_ folded: [UInt8]) -> UInt64 {
    guard folded.count <= 7 else { return longFolding << 56 }
    var packed = UInt64(folded.count + 1) << 56
    for (index, byte) in folded.enumerated() { packed |= UInt64(byte) << (8 * UInt64(index)) }
    return packed
  }

  private static func fold(_ run: UnsafeBufferPointer<UInt8>, _ caseInsensitive: Bool, _ diacriticInsensitive: Bool)
    -> [UInt8]
  {
    Array(
      PredicateStringFolding.referenceFold(
        String(decoding: run, as: UTF8.self), caseInsensitive: caseInsensitive,
        diacriticInsensitive: diacriticInsensitive
      ).utf8)
  }

  // MARK: - The shared cache

  /// Appends the folding of a run with the cache shared by every thread.
  static func appendShared(
    _ run: UnsafeBufferPointer<UInt8>, caseInsensitive: Bool, diacriticInsensitive: Bool, to output: inout FoldedBytes
  ) {
    SharedFoldedRuns.instance.append(
      run, caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive, to: &output)
  }
}

/// The cache of folded runs every thread shares, behind a lock.
private final class SharedFoldedRuns: @unchecked Sendable {
  static let instance = SharedFoldedRuns()

  private let lock = NSLock()
  private let runs = PredicateFoldedRuns(capacity: 16_384)

  func append(
    _ run: UnsafeBufferPointer<UInt8>, caseInsensitive: Bool, diacriticInsensitive: Bool, to output: inout FoldedBytes
  ) {
    lock.lock()
    defer { lock.unlock() }
    runs.append(run, caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive, to: &output)
  }
}
