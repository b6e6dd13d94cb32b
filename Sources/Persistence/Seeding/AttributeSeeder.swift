import Foundation

/// Draws the values of one attribute of one entity: of the attribute's type, inside its
/// minimum and maximum (values, lengths, dates), matching its regular expression, and distinct
/// from every value in its uniqueness domain when it has one.
///
/// Without bounds, values stay in readable ranges: integers 0…10,000, floating-point values
/// 0…1,000 with two decimals, dates between 2020 and 2026 with milliseconds, strings of words up
/// to 24 characters, binary data of 4 to 64 bytes. Optional attributes are nil one time in eight
/// (never when they must be distinct). Transformable values are random bytes, not a value
/// transformer's output.
struct AttributeSeeder {
  /// The values already taken in one uniqueness domain (an attribute of a constrained entity
  /// and all its sub-entities), with a counter for sequential candidates.
  struct UniqueDomain {
    var used: Set<AttributeValue> = []
    var counter: Int64 = 0
  }

  let entity: String
  let attribute: AttributeDescription
  private var random: SeedRandom
  private let pattern: SeedPattern?
  private let matcher: NSRegularExpression?
  /// Bounds on the value (numbers, dates) or the length (strings, binary data).
  private let minimum: Double?
  private let maximum: Double?

  init(entity: String, attribute: AttributeDescription, seed: UInt64) throws(SeedError) {
    self.entity = entity
    self.attribute = attribute
    self.random = SeedRandom(seed: seed, stream: "\(entity).\(attribute.name)")
    self.minimum = attribute.minValue?.numericValue
    self.maximum = attribute.maxValue?.numericValue
    if let minimum, let maximum, minimum > maximum {
      throw SeedError(
        entity: entity, property: attribute.name, message: "its minimum \(minimum) is above its maximum \(maximum)")
    }
    if attribute.attributeType == .string, let source = attribute.regularExpression, !source.isEmpty {
      let pattern: SeedPattern
      do {
        pattern = try SeedPattern(source)
      } catch {
        throw SeedError(
          entity: entity, property: attribute.name,
          message:
            "cannot generate strings matching the pattern \(source): it uses \(error.message), which the seeder does not support"
        )
      }
      let lengths = pattern.lengths
      if let maximum, lengths.minimum > Int(maximum) {
        throw SeedError(
          entity: entity, property: attribute.name,
          message:
            "the pattern \(source) matches nothing shorter than \(lengths.minimum) characters; the maximum length is \(Int(maximum))"
        )
      }
      if let minimum, let longest = lengths.maximum, longest < Int(minimum) {
        throw SeedError(
          entity: entity, property: attribute.name,
          message:
            "the pattern \(source) matches nothing longer than \(longest) characters; the minimum length is \(Int(minimum))"
        )
      }
      guard let matcher = try? NSRegularExpression(pattern: source) else {
        throw SeedError(
          entity: entity, property: attribute.name, message: "the pattern \(source) is not a valid regular expression")
      }
      self.pattern = pattern
      self.matcher = matcher
    } else {
      self.pattern = nil
      self.matcher = nil
    }
  }

  /// The next value; `domain` is the uniqueness domain when the value must be distinct.
  mutating func next(distinctIn domain: inout UniqueDomain?) throws(SeedError) -> AttributeValue? {
    guard var unique = domain else {
      if attribute.isOptional && random.chance(1, in: 8) { return nil }
      return try draw(counter: nil)
    }
    defer { domain = unique }
    var attempts = 0
    while true {
      let counter = unique.counter
      unique.counter += 1
      guard let value = try draw(counter: counter) else { return nil }
      if unique.used.insert(value).inserted { return value }
      attempts += 1
      if attempts > 1000 && !isSequential {
        throw SeedError(
          entity: entity, property: attribute.name,
          message:
            "cannot find a value distinct from the \(unique.used.count) taken (uniqueness constraint)\(pattern.map { " that matches the pattern \($0.source)" } ?? "")"
        )
      }
    }
  }

  /// Whether distinct values come from a counter (each candidate new) rather than by chance.
  private var isSequential: Bool {
    switch attribute.attributeType {
    case .integer16, .integer32, .integer64, .decimal, .boolean, .uri: true
    case .string: pattern == nil
    default: false
    }
  }

  private func failure(_ message: String) -> SeedError {
    SeedError(entity: entity, property: attribute.name, message: message)
  }

  // MARK: - Drawing

  /// A value; with `counter`, a candidate for a distinct value (sequential where the type
  /// allows).
  private mutating func draw(counter: Int64?) throws(SeedError) -> AttributeValue? {
    switch attribute.attributeType {
    case .integer16, .integer32, .integer64: return .integer(try integer(counter: counter))
    case .boolean:
      if let counter {
        guard counter < 2 else { throw failure("a Boolean has only two distinct values (uniqueness constraint)") }
        return .boolean(counter == 1)
      }
      return .boolean(random.chance(1, in: 2))
    case .double: return .double(floatingPoint())
    case .float: return .float(float())
    case .decimal: return .decimal(try decimal(counter: counter))
    case .date: return .date(try date())
    case .string: return .string(try string(counter: counter))
    case .binary: return .binary(bytes(defaultRange: 4...64))
    case .transformable: return .binary(bytes(defaultRange: 8...32))
    case .uuid: return .uuid(uuid())
    case .uri:
      let number = counter ?? random.int(in: Int64(0)...1_000_000)
      return .uri(URL(string: "https://example.com/\(entity.lowercased())/\(number)")!)
    case .undefined, .objectID, .composite: return nil
    }
  }

  /// The bounds of an integer attribute, within its type's range.
  private func integerBounds(window: Int64) throws(SeedError) -> (
    explicit: ClosedRange<Int64>, usual: ClosedRange<Int64>
  ) {
    let range = attribute.attributeType.integerRange ?? Int64.min...Int64.max
    let low = minimum.map { max(range.lowerBound, Int64(exactly: $0.rounded(.up)) ?? range.lowerBound) }
    let high = maximum.map { min(range.upperBound, Int64(exactly: $0.rounded(.down)) ?? range.upperBound) }
    let explicitLow = low ?? range.lowerBound
    let explicitHigh = high ?? range.upperBound
    guard explicitLow <= explicitHigh else { throw failure("no whole number lies between its minimum and maximum") }
    let usualLow = low ?? (high.map { max(explicitLow, $0 - window) } ?? max(explicitLow, 0))
    let usualHigh = high ?? min(explicitHigh, usualLow + window)
    return (explicitLow...explicitHigh, usualLow...usualHigh)
  }

  private mutating func integer(counter: Int64?) throws(SeedError) -> Int64 {
    let bounds = try integerBounds(window: 10_000)
    guard let counter else { return random.int(in: bounds.usual) }
    // Distinct values count up from the usual lower bound, then from the explicit one.
    let (value, overflow) = bounds.usual.lowerBound.addingReportingOverflow(counter)
    guard !overflow, value <= bounds.explicit.upperBound else {
      throw failure(
        "its range \(bounds.explicit.lowerBound)…\(bounds.explicit.upperBound) has no more distinct values (uniqueness constraint)"
      )
    }
    return value
  }

  /// A floating-point bound pair: explicit bounds, or a window of 1,000 beside the one given.
  private func realBounds() -> (Double, Double) {
    let low = minimum ?? (maximum.map { $0 - 1000 } ?? 0)
    let high = maximum ?? low + 1000
    return (low, high)
  }

  private mutating func floatingPoint() -> Double {
    let (low, high) = realBounds()
    let value = low + random.fraction() * (high - low)
    let rounded = (value * 100).rounded() / 100
    return rounded >= low && rounded <= high ? rounded : value
  }

  private mutating func float() -> Float {
    let (low, high) = realBounds()
    var value = Float(floatingPoint())
    // Rounding to Float may step over a bound; step back inside.
    while Double(value) > high { value = value.nextDown }
    while Double(value) < low { value = value.nextUp }
    return value
  }

  private mutating func decimal(counter: Int64?) throws(SeedError) -> Decimal {
    let (low, high) = realBounds()
    let lowCents = Int64(exactly: (low * 100).rounded(.up)) ?? 0
    let highCents = Int64(exactly: (high * 100).rounded(.down)) ?? lowCents
    guard lowCents <= highCents else {
      throw failure("no value with two decimals lies between its minimum and maximum")
    }
    let cents: Int64
    if let counter {
      guard lowCents + counter <= highCents else {
        throw failure("its range \(low)…\(high) has no more distinct values with two decimals (uniqueness constraint)")
      }
      cents = lowCents + counter
    } else {
      cents = random.int(in: lowCents...highCents)
    }
    return Decimal(cents) / 100
  }

  private mutating func date() throws(SeedError) -> Date {
    // 2020-01-01 and 2026-01-01, in seconds since 2001-01-01.
    let low = minimum ?? (maximum.map { $0 - 189_302_400 } ?? 599_616_000)
    let high = maximum ?? low + 189_302_400
    let lowMilliseconds = Int64(exactly: (low * 1000).rounded(.up)) ?? 0
    let highMilliseconds = Int64(exactly: (high * 1000).rounded(.down)) ?? lowMilliseconds
    guard lowMilliseconds <= highMilliseconds else { throw failure("no date lies between its minimum and maximum") }
    return Date(timeIntervalSinceReferenceDate: Double(random.int(in: lowMilliseconds...highMilliseconds)) / 1000)
  }

  /// The words strings are made of.
  private static let words = [
    "alpha", "bravo", "cedar", "delta", "ember", "fjord", "grove", "harbor", "island", "juniper", "kelp", "lagoon",
    "meadow", "nectar", "orchid", "prairie", "quartz", "river", "summit", "tundra", "umber", "valley", "willow",
    "zephyr",
  ]

  private mutating func string(counter: Int64?) throws(SeedError) -> String {
    let minimumLength = minimum.map { Int($0) } ?? 0
    let maximumLength = maximum.map { Int($0) }
    if let pattern, let matcher {
      for _ in 0..<500 {
        let candidate = pattern.sample(using: &random, stretch: max(8, minimumLength))
        let length = candidate.utf16.count
        guard length >= minimumLength, length <= (maximumLength ?? Int.max) else { continue }
        let range = NSRange(candidate.startIndex..<candidate.endIndex, in: candidate)
        guard matcher.firstMatch(in: candidate, options: [.anchored], range: range)?.range == range else { continue }
        return candidate
      }
      throw failure(
        "cannot generate a string matching the pattern \(pattern.source) with a length of \(minimumLength)…\(maximumLength.map(String.init) ?? "any")"
      )
    }
    let low = maximumLength == 0 ? 0 : max(minimumLength, 1)
    let high = maximumLength ?? max(low, 24)
    var length = random.int(in: low...min(high, low + 23))
    var tail = ""
    if let counter {
      tail = "-" + String(counter, radix: 36)
      if tail.count > high {
        tail = String(counter, radix: 36)
        guard tail.count <= high else {
          throw failure("its maximum length \(high) leaves no room for more distinct values (uniqueness constraint)")
        }
      }
      length = max(length, min(high, tail.count + 5))
    }
    var text = ""
    while text.count < length - tail.count {
      if !text.isEmpty { text += " " }
      text += Self.words[random.int(in: 0...(Self.words.count - 1))]
    }
    text = String(text.prefix(length - tail.count))
    if text.hasSuffix(" ") { text = String(text.dropLast()) + "x" }
    return text + tail
  }

  /// Random bytes; only Binary attributes have length bounds (as validation checks them).
  private mutating func bytes(defaultRange: ClosedRange<Int>) -> Data {
    var low = defaultRange.lowerBound
    var high = defaultRange.upperBound
    if attribute.attributeType == .binary {
      let minimumLength = minimum.map { Int($0) }
      let maximumLength = maximum.map { Int($0) }
      low = minimumLength ?? min(low, maximumLength ?? low)
      high = maximumLength ?? max(low, high)
    }
    let length = random.int(in: low...min(high, low + 60))
    var data = Data(count: length)
    for index in 0..<length { data[index] = UInt8(truncatingIfNeeded: random.next()) }
    return data
  }

  private mutating func uuid() -> UUID {
    var bytes = (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4
    bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
    return UUID(
      uuid: (
        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10],
        bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
      ))
  }
}
