import Foundation
import Persistence
import Testing

/// Generates random predicates in the canonical form the parser produces.
struct PredicateGenerator {
  var random: SeedRandom

  static let keys = [
    "title", "name", "priority", "project", "tags", "items", "price", "naïve", "_hidden", "x1", "size", "first",
    "order", "in", "Self", "contains", "Any", "between", "count", "TRUEPREDICATE", "yes", "cast",
  ]
  static let variables = ["x", "VAR", "lower", "AND", "size"]
  static let stringPieces = [
    "a", "Z", " ", "é", "e\u{301}", "\"", "'", "\\", "%", "%@", "$x", "\n", "\t", "\r", "\u{1}", "\u{7F}", "😀", "ß",
    "*", "?", "{", "}", "(", ")", "AND", "日本",
  ]

  init(seed: UInt64) {
    random = SeedRandom(seed: seed)
  }

  mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

  mutating func pick<T>(_ values: [T]) -> T { values.randomElement(using: &random)! }

  mutating func predicate(depth: Int, scope: [String] = []) -> FetchPredicate {
    let choice = Int.random(in: 0..<(depth > 0 ? 10 : 5), using: &random)
    switch choice {
    case 0: return chance(50) ? .true : .false
    case 1...4: return .comparison(comparison(depth: depth, scope: scope))
    case 5, 6:
      return .and((0..<Int.random(in: 2...4, using: &random)).map { _ in predicate(depth: depth - 1, scope: scope) })
    case 7, 8:
      return .or((0..<Int.random(in: 2...4, using: &random)).map { _ in predicate(depth: depth - 1, scope: scope) })
    default: return .not(predicate(depth: depth - 1, scope: scope))
    }
  }

  mutating func comparison(depth: Int, scope: [String]) -> PredicateComparison {
    let op = pick(PredicateOperator.allCases)
    var options: PredicateComparisonOptions = []
    if chance(30) { options.insert(.caseInsensitive) }
    if chance(30) { options.insert(.diacriticInsensitive) }
    if chance(10) { options.insert(.normalized) }
    let left = expression(depth: depth, scope: scope)
    let right: FetchExpression
    if op == .between {
      switch Int.random(in: 0..<3, using: &random) {
      case 0: right = .constant(.array([value(depth: 0), value(depth: 0)]))
      case 1: right = .aggregate([.variable(pick(Self.variables)), expression(depth: 0, scope: scope)])
      default: right = .keyPath(keyPath())
      }
    } else {
      right = expression(depth: depth, scope: scope)
    }
    return PredicateComparison(left, op, right, modifier: pick(PredicateModifier.allCases), options: options)
  }

  mutating func keyPath() -> PredicateKeyPath {
    PredicateKeyPath((0..<Int.random(in: 1...3, using: &random)).map { _ in pick(Self.keys) })
  }

  mutating func variable(scope: [String]) -> String {
    !scope.isEmpty && chance(70) ? pick(scope) : pick(Self.variables)
  }

  mutating func expression(depth: Int, scope: [String]) -> FetchExpression {
    switch Int.random(in: 0..<(depth > 0 ? 12 : 6), using: &random) {
    case 0, 1: return .constant(value(depth: 1))
    case 2, 3: return .keyPath(keyPath())
    case 4: return .evaluatedObject
    case 5: return .variable(variable(scope: scope))
    case 6: return .member(.variable(variable(scope: scope)), keyPath())
    case 7: return .member(.constant(value(depth: 0)), keyPath())
    case 8:
      var elements = (0..<Int.random(in: 0...3, using: &random)).map { _ in expression(depth: 0, scope: scope) }
      elements.insert(.variable(variable(scope: scope)), at: Int.random(in: 0...elements.count, using: &random))
      return .aggregate(elements)
    case 9, 10:
      let op = pick(PredicateCollectionOperator.allCases)
      let collection: FetchExpression =
        switch Int.random(in: 0..<4, using: &random) {
        case 0: .keyPath(keyPath())
        case 1: .evaluatedObject
        case 2: .member(.variable(variable(scope: scope)), keyPath())
        default: subquery(depth: depth - 1, scope: scope)
        }
      let path = op.acceptsKeyPath && chance(60) ? keyPath() : nil
      return .collectionOperator(op, collection: collection, keyPath: path)
    default:
      return subquery(depth: depth - 1, scope: scope)
    }
  }

  mutating func subquery(depth: Int, scope: [String]) -> FetchExpression {
    let variable = pick(["t", "s", "item", "x"])
    let collection: FetchExpression =
      chance(70) ? .keyPath(keyPath()) : .member(.variable(self.variable(scope: scope)), keyPath())
    return .subquery(
      collection: collection, variable: variable, predicate: predicate(depth: max(depth, 0), scope: scope + [variable]))
  }

  mutating func value(depth: Int) -> PredicateValue {
    switch Int.random(in: 0..<(depth > 0 ? 12 : 11), using: &random) {
    case 0: return .null
    case 1: return .bool(chance(50))
    case 2:
      return .integer(
        chance(20) ? pick([.min, .max, 0, -1]) : Int64.random(in: -1_000_000...1_000_000, using: &random))
    case 3:
      var double: Double
      repeat { double = Double(bitPattern: random.next()) } while double.isNaN
      return .double(chance(50) ? double : Double(Int.random(in: -5000...5000, using: &random)) / 8)
    case 4:
      let digits = Int64.random(in: -99_999_999...99_999_999, using: &random)
      return .decimal(Decimal(string: "\(digits)e\(Int.random(in: -6...6, using: &random))")!)
    case 5:
      return .string((0..<Int.random(in: 0...6, using: &random)).map { _ in pick(Self.stringPieces) }.joined())
    case 6:
      return .date(
        Date(timeIntervalSinceReferenceDate: Double(Int.random(in: -1_000_000...1_000_000, using: &random)) / 4))
    case 7:
      return .data(
        Data((0..<Int.random(in: 0...8, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }))
    case 8:
      return .uuid(
        UUID(
          uuid: (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }.withUnsafeBytes {
            $0.load(as: uuid_t.self)
          }))
    case 9:
      return .url(
        URL(
          string:
            "https://example.com/p\(Int.random(in: 0...99, using: &random))?q=\(Int.random(in: 0...9, using: &random))")!
      )
    case 10: return .string(pick(["", "plain", "100%", "x*y?"]))
    default: return .array((0..<Int.random(in: 0...3, using: &random)).map { _ in value(depth: depth - 1) })
    }
  }
}

@Suite("Predicate round trip")
struct PredicateRoundTripTests {
  @Test("generated predicates re-parse from their description", arguments: 0..<8)
  func roundTrip(batch: Int) throws {
    var generator = PredicateGenerator(seed: 0x5EED_0000 + UInt64(batch))
    for index in 0..<75 {
      let predicate = generator.predicate(depth: 3)
      let text = predicate.description
      let reparsed: FetchPredicate
      do {
        reparsed = try FetchPredicate(format: text)
      } catch {
        Issue.record("batch \(batch) #\(index): \(error) in \(text)")
        continue
      }
      #expect(reparsed == predicate, "batch \(batch) #\(index): \(text)")
      #expect(reparsed.description == text)
    }
  }

  @Test("generated predicates survive Codable", arguments: 0..<2)
  func codable(batch: Int) throws {
    var generator = PredicateGenerator(seed: 0xC0DE_0000 + UInt64(batch))
    let encoder = JSONEncoder()
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    let decoder = JSONDecoder()
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    for _ in 0..<50 {
      let predicate = generator.predicate(depth: 3)
      let decoded = try decoder.decode(FetchPredicate.self, from: try encoder.encode(predicate))
      #expect(decoded == predicate, "\(predicate)")
    }
  }
}
