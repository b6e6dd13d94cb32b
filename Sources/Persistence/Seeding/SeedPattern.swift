/// A regular expression the seeder can generate matching strings for: literals, `.`, character
/// classes (`[a-z0-9_]`, `[^,]`, `\d`, `\w`, `\s` and their negations), groups (`(…)`, `(?:…)`),
/// alternation (`red|green|blue`), and the quantifiers `?`, `*`, `+`, `{n}`, `{n,}`, `{n,m}`
/// (lazy and possessive forms read the same), with `^` and `$` at the ends.
///
/// Anything else — look-arounds, back-references, word boundaries, Unicode properties, inline
/// flags, nested sets — is refused with an error naming it, so a model whose pattern the seeder
/// cannot satisfy gets a clear message rather than invalid data. Negated sets, `.` and the
/// negated escapes draw from printable ASCII.
struct SeedPattern {
  /// A parsed pattern.
  indirect enum Node {
    case literal(Unicode.Scalar)
    /// Characters drawn from ranges of scalar values (never empty).
    case set([ClosedRange<UInt32>])
    case sequence([Node])
    case alternation([Node])
    case repetition(Node, minimum: Int, maximum: Int?)
  }

  /// The pattern's text.
  let source: String
  /// The parsed pattern.
  let root: Node

  /// Parses a pattern; throws a message naming what it cannot generate.
  init(_ source: String) throws(SeedPatternError) {
    self.source = source
    var parser = Parser(scalars: Array(source.unicodeScalars))
    self.root = try parser.parsePattern()
  }

  /// The shortest and longest strings the pattern matches, in characters (nil: unbounded).
  var lengths: (minimum: Int, maximum: Int?) { Self.lengths(of: root) }

  private static func lengths(of node: Node) -> (minimum: Int, maximum: Int?) {
    switch node {
    case .literal, .set: return (1, 1)
    case .sequence(let items):
      var minimum = 0
      var maximum: Int? = 0
      for item in items {
        let inner = lengths(of: item)
        minimum += inner.minimum
        maximum = maximum.flatMap { total in inner.maximum.map { total + $0 } }
      }
      return (minimum, maximum)
    case .alternation(let branches):
      let inner = branches.map(lengths(of:))
      let maximum = inner.contains { $0.maximum == nil } ? nil : inner.compactMap(\.maximum).max()
      return (inner.map(\.minimum).min() ?? 0, maximum)
    case .repetition(let node, let minimum, let maximum):
      let inner = lengths(of: node)
      let top: Int? =
        if let maximum, let innerMaximum = inner.maximum { maximum * innerMaximum } else { maximum == 0 ? 0 : nil }
      return (inner.minimum * minimum, top)
    }
  }

  /// A string the pattern matches; unbounded repetitions repeat up to `stretch` more times than
  /// their minimum.
  func sample(using random: inout SeedRandom, stretch: Int) -> String {
    var output = String.UnicodeScalarView()
    Self.sample(root, into: &output, random: &random, stretch: max(1, stretch))
    return String(output)
  }

  private static func sample(
    _ node: Node, into output: inout String.UnicodeScalarView, random: inout SeedRandom, stretch: Int
  ) {
    switch node {
    case .literal(let scalar):
      output.append(scalar)
    case .set(let ranges):
      let total = ranges.reduce(0) { $0 + Int($1.upperBound - $1.lowerBound) + 1 }
      var pick = random.int(in: 0...(total - 1))
      for range in ranges {
        let size = Int(range.upperBound - range.lowerBound) + 1
        if pick < size {
          output.append(Unicode.Scalar(range.lowerBound + UInt32(pick)) ?? "?")
          return
        }
        pick -= size
      }
    case .sequence(let items):
      for item in items { sample(item, into: &output, random: &random, stretch: stretch) }
    case .alternation(let branches):
      sample(branches[random.int(in: 0...(branches.count - 1))], into: &output, random: &random, stretch: stretch)
    case .repetition(let inner, let minimum, let maximum):
      let count = random.int(in: minimum...(maximum ?? (minimum + stretch)))
      for _ in 0..<count { sample(inner, into: &output, random: &random, stretch: stretch) }
    }
  }

  /// Printable ASCII: what `.` and negated sets draw from.
  static let printable: ClosedRange<UInt32> = 0x20...0x7E
  static let digits: [ClosedRange<UInt32>] = [0x30...0x39]
  static let word: [ClosedRange<UInt32>] = [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A]
  static let space: [ClosedRange<UInt32>] = [0x09...0x09, 0x20...0x20]

  /// The printable ASCII characters outside `ranges`.
  static func complement(of ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
    printable.filter { value in !ranges.contains { $0.contains(value) } }.map { $0...$0 }
  }

  /// A recursive-descent parser over the pattern's scalars.
  private struct Parser {
    let scalars: [Unicode.Scalar]
    var index = 0

    var atEnd: Bool { index >= scalars.count }
    var peek: Unicode.Scalar? { atEnd ? nil : scalars[index] }

    func error(_ message: String) -> SeedPatternError {
      SeedPatternError(message: message)
    }

    mutating func parsePattern() throws(SeedPatternError) -> Node {
      if peek == "^" { index += 1 }
      let node = try parseAlternation(depth: 0)
      if !atEnd {
        throw error(peek == ")" ? "an unmatched ')'" : "unexpected '\(peek!)'")
      }
      return node
    }

    mutating func parseAlternation(depth: Int) throws(SeedPatternError) -> Node {
      var branches = [try parseSequence(depth: depth)]
      while peek == "|" {
        index += 1
        branches.append(try parseSequence(depth: depth))
      }
      return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    mutating func parseSequence(depth: Int) throws(SeedPatternError) -> Node {
      var items: [Node] = []
      while let next = peek, next != "|", next != ")" {
        if next == "$" {
          index += 1
          guard atEnd || peek == "|" || peek == ")" else { throw error("'$' before the end of the pattern") }
          continue
        }
        if next == "^" { throw error("'^' after the start of the pattern") }
        var atom = try parseAtom(depth: depth)
        if let quantifier = try parseQuantifier() {
          atom = .repetition(atom, minimum: quantifier.minimum, maximum: quantifier.maximum)
          if peek == "?" || peek == "+" { index += 1 }  // lazy or possessive: same strings
          if let next = peek, "*+?{".unicodeScalars.contains(next) { throw error("a quantifier after a quantifier") }
        }
        items.append(atom)
      }
      return items.count == 1 ? items[0] : .sequence(items)
    }

    mutating func parseQuantifier() throws(SeedPatternError) -> (minimum: Int, maximum: Int?)? {
      switch peek {
      case "?":
        index += 1
        return (0, 1)
      case "*":
        index += 1
        return (0, nil)
      case "+":
        index += 1
        return (1, nil)
      case "{":
        index += 1
        let minimum = try number()
        var maximum: Int? = minimum
        if peek == "," {
          index += 1
          maximum = peek == "}" ? nil : try number()
        }
        guard peek == "}" else { throw error("a '{' quantifier without its closing '}'") }
        index += 1
        if let maximum, maximum < minimum { throw error("the quantifier {\(minimum),\(maximum)} has max below min") }
        guard minimum <= 1000, (maximum ?? 0) <= 1000 else { throw error("a quantifier above 1000 repetitions") }
        return (minimum, maximum)
      default:
        return nil
      }
    }

    mutating func number() throws(SeedPatternError) -> Int {
      var value = 0
      var digits = 0
      while let next = peek, ("0"..."9").contains(next) {
        value = min(value * 10 + Int(next.value - 48), 1_000_000)
        digits += 1
        index += 1
      }
      guard digits > 0 else { throw error("a '{' quantifier without a number") }
      return value
    }

    mutating func parseAtom(depth: Int) throws(SeedPatternError) -> Node {
      guard let next = peek else { throw error("the pattern ends where a character was expected") }
      index += 1
      switch next {
      case "(":
        if peek == "?" {
          guard index + 1 < scalars.count, scalars[index + 1] == ":" else {
            throw error("the group construct '(?\(index + 1 < scalars.count ? String(scalars[index + 1]) : "")'")
          }
          index += 2
        }
        guard depth < 50 else { throw error("groups nested too deeply") }
        let inner = try parseAlternation(depth: depth + 1)
        guard peek == ")" else { throw error("a '(' without its closing ')'") }
        index += 1
        return inner
      case "[":
        return try parseSet()
      case ".":
        return .set([SeedPattern.printable])
      case "\\":
        return try parseEscape(inSet: false)
      case "*", "+", "?", "{":
        throw error("the quantifier '\(next)' has nothing to repeat")
      default:
        return .literal(next)
      }
    }

    mutating func parseEscape(inSet: Bool) throws(SeedPatternError) -> Node {
      guard let next = peek else { throw error("a '\\' at the end of the pattern") }
      index += 1
      switch next {
      case "d": return .set(SeedPattern.digits)
      case "w": return .set(SeedPattern.word)
      case "s": return .set(SeedPattern.space)
      case "D", "W", "S":
        if inSet { throw error("the escape '\\\(next)' inside a set") }
        let base = next == "D" ? SeedPattern.digits : (next == "W" ? SeedPattern.word : SeedPattern.space)
        return .set(SeedPattern.complement(of: base))
      case "t": return .literal("\t")
      case "n": return .literal("\n")
      case "r": return .literal("\r")
      case "f": return .literal("\u{0C}")
      case "u", "x":
        let count = next == "u" ? 4 : 2
        guard index + count <= scalars.count,
          let value = UInt32(String(String.UnicodeScalarView(scalars[index..<(index + count)])), radix: 16),
          let scalar = Unicode.Scalar(value)
        else { throw error("the escape '\\\(next)' without \(count) hexadecimal digits") }
        index += count
        return .literal(scalar)
      case "b", "B": throw error("the word boundary '\\\(next)'")
      case "A", "z", "Z", "G": throw error("the anchor '\\\(next)'")
      case "p", "P": throw error("the Unicode property '\\\(next)'")
      case "Q", "E": throw error("quoting with '\\Q…\\E'")
      case "1"..."9", "k": throw error("the back-reference '\\\(next)'")
      default:
        if next.properties.isAlphabetic || ("0"..."9").contains(next) {
          throw error("the escape '\\\(next)'")
        }
        return .literal(next)
      }
    }

    mutating func parseSet() throws(SeedPatternError) -> Node {
      var negated = false
      if peek == "^" {
        negated = true
        index += 1
      }
      var ranges: [ClosedRange<UInt32>] = []
      var first = true
      while true {
        guard let next = peek else { throw error("a '[' without its closing ']'") }
        if next == "]" && !first { break }
        first = false
        index += 1
        let low: UInt32
        switch next {
        case "[": throw error("a nested set '[' inside a set")
        case "\\":
          switch try parseEscape(inSet: true) {
          case .literal(let scalar): low = scalar.value
          case .set(let inner):
            ranges += inner
            continue
          default: continue
          }
        case "&" where peek == "&": throw error("set intersection '&&'")
        default: low = next.value
        }
        if peek == "-", index + 1 < scalars.count, scalars[index + 1] != "]" {
          index += 1
          guard var high = peek?.value else { throw error("a '[' without its closing ']'") }
          index += 1
          if high == UInt32(("\\" as Unicode.Scalar).value) {
            guard case .literal(let scalar) = try parseEscape(inSet: true) else {
              throw error("a range ending in a class escape")
            }
            high = scalar.value
          }
          guard low <= high else {
            throw error("the range '\(Unicode.Scalar(low)!)-\(Unicode.Scalar(high)!)' is reversed")
          }
          ranges.append(low...high)
        } else {
          ranges.append(low...low)
        }
      }
      index += 1  // ]
      if negated {
        let remaining = SeedPattern.complement(of: ranges)
        guard !remaining.isEmpty else { throw error("a negated set that excludes every printable character") }
        return .set(remaining)
      }
      guard !ranges.isEmpty else { throw error("an empty set") }
      return .set(ranges)
    }
  }
}

/// A pattern the seeder cannot generate strings for, and why.
struct SeedPatternError: Error, Sendable, Hashable {
  var message: String
}
