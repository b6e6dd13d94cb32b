/// Orders version names the way people number them.
///
/// Real bundles name versions `Model`, `Model 2` … `Model 117`, `ObvEngine-v60`, `0.6.10`,
/// `Model_1`: directory order puts `Model 10` before `Model 2`. Runs of digits compare as
/// numbers, other text compares case-insensitively (then exactly, so the order is total), and
/// the version named exactly like the bundle comes first (Xcode's first version has the bundle's
/// name).
public enum VersionOrdering {
  /// Sorts version names into migration order.
  public static func sorted(_ names: [String], bundleName: String) -> [String] {
    // Split each name into chunks once, not at every comparison.
    names.map { (name: $0, chunks: chunks($0)) }
      .sorted { precedes($0.name, $0.chunks, $1.name, $1.chunks, bundleName: bundleName) }
      .map(\.name)
  }

  /// Whether `lhs` comes before `rhs` in migration order.
  public static func precedes(_ lhs: String, _ rhs: String, bundleName: String) -> Bool {
    precedes(lhs, chunks(lhs), rhs, chunks(rhs), bundleName: bundleName)
  }

  private static func precedes(
    _ lhs: String, _ left: [Chunk], _ rhs: String, _ right: [Chunk], bundleName: String
  ) -> Bool {
    if lhs == rhs { return false }
    if lhs == bundleName { return true }
    if rhs == bundleName { return false }
    let comparison = compare(left, right)
    if comparison != 0 { return comparison < 0 }
    return lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
  }

  /// Compares two strings with runs of digits as numbers: negative, zero or positive.
  public static func naturalCompare(_ lhs: String, _ rhs: String) -> Int {
    compare(chunks(lhs), chunks(rhs))
  }

  private static func compare(_ left: [Chunk], _ right: [Chunk]) -> Int {
    for (a, b) in zip(left, right) {
      switch (a, b) {
      case (.number(let x, let xText), .number(let y, let yText)):
        if x != y { return x < y ? -1 : 1 }
        if xText.count != yText.count { return xText.count < yText.count ? -1 : 1 }
      case (.number, .text):
        return -1
      case (.text, .number):
        return 1
      case (.text(let x), .text(let y)):
        let lx = x.lowercased()
        let ly = y.lowercased()
        if lx != ly { return lx < ly ? -1 : 1 }
      }
    }
    if left.count != right.count { return left.count < right.count ? -1 : 1 }
    return 0
  }

  private enum Chunk {
    case number(Double, String)
    case text(String)
  }

  private static func chunks(_ string: String) -> [Chunk] {
    var result: [Chunk] = []
    var current = ""
    var inDigits = false
    for character in string {
      let isDigit = character.isASCII && character.isNumber
      if !current.isEmpty && isDigit != inDigits {
        result.append(inDigits ? .number(Double(current) ?? 0, current) : .text(current))
        current = ""
      }
      inDigits = isDigit
      current.append(character)
    }
    if !current.isEmpty {
      result.append(inDigits ? .number(Double(current) ?? 0, current) : .text(current))
    }
    return result
  }
}
