import Foundation
import Persistence
import Testing

@Suite("Seeding strings for regular expressions")
struct SeedPatternTests {
  /// A one-entity model whose `code` attribute has the pattern (and length bounds).
  static func model(pattern: String, minimum: Int? = nil, maximum: Int? = nil, unique: Bool = false) -> ModelVersion {
    let escaped = pattern.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
      .replacingOccurrences(of: "<", with: "&lt;")
    let bounds =
      (minimum.map { " minValueString=\"\($0)\"" } ?? "") + (maximum.map { " maxValueString=\"\($0)\"" } ?? "")
    return ContextFixtures.model(
      """
      <entity name="Code" representedClassName="Code">
        <attribute name="code" attributeType="String" regularExpressionString="\(escaped)"\(bounds)/>
        \(unique ? "<uniquenessConstraints><uniquenessConstraint><constraint value=\"code\"/></uniquenessConstraint></uniquenessConstraints>" : "")
      </entity>
      """)
  }

  static func seed(_ model: ModelVersion, rows: Int = 40) throws -> [String] {
    let container = try PersistentContainer(model: model, options: .inMemory)
    try StoreSeeder(rowsPerEntity: rows, seed: 3).seed(container.newContext())
    return try container.newContext().fetch(FetchRequest<ManagedObject>(entityName: "Code")).map {
      guard case .string(let code)? = try $0.value(forKey: "code") else { return "" }
      return code
    }
  }

  static let supported = [
    "[A-Z]{3}-\\d{4}", "(red|green|blue)", "[a-z0-9_.]+@example\\.(com|org)", "^[^,;]{2,5}$", "colou?r",
    "(?:ab|cd)*x", "\\w+\\s\\w+", "[\\-+]?[0-9]+(\\.[0-9]{1,2})?", "\\u00e9t\\u00e9|caf\\x41", "a.b", "[A-F0-9]{8}",
  ]

  @Test("Supported patterns: every value matches as a whole", arguments: supported)
  func matches(_ pattern: String) throws {
    let codes = try Self.seed(Self.model(pattern: pattern))
    let expression = try NSRegularExpression(pattern: pattern)
    #expect(codes.count == 40)
    for code in codes {
      let range = NSRange(code.startIndex..<code.endIndex, in: code)
      #expect(expression.firstMatch(in: code, options: [.anchored], range: range)?.range == range, "'\(code)'")
    }
  }

  @Test("Length bounds and uniqueness combine with a pattern")
  func lengthsAndUniqueness() throws {
    let codes = try Self.seed(Self.model(pattern: "[a-c]+", minimum: 6, maximum: 8, unique: true), rows: 200)
    #expect(codes.allSatisfy { (6...8).contains($0.count) })
    #expect(Set(codes).count == 200)
  }

  @Test(
    "Patterns the seeder cannot satisfy are refused naming the entity, the attribute and the construct",
    arguments: [
      ("(?=a)b", "the group construct '(?='"), ("\\bword", "the word boundary '\\b'"),
      ("(a)\\1", "the back-reference '\\1'"),
      ("\\p{L}+", "the Unicode property '\\p'"), ("[[a-z]]", "a nested set '[' inside a set"),
      ("(?i)abc", "the group construct '(?i'"), ("[z-a]", "the range 'z-a' is reversed"),
      ("a{5,2}", "has max below min"),
      ("*a", "the quantifier '*' has nothing to repeat"),
    ])
  func unsupported(_ pattern: String, _ construct: String) throws {
    let container = try PersistentContainer(model: Self.model(pattern: pattern), options: .inMemory)
    do {
      try StoreSeeder(rowsPerEntity: 1).seed(container.newContext())
      Issue.record("'\(pattern)' should be refused")
    } catch {
      #expect(error.entity == "Code" && error.property == "code")
      #expect(error.description.contains(construct), "\(error)")
      #expect(error.description.hasPrefix("Code.code: cannot generate strings matching the pattern \(pattern)"))
    }
  }

  @Test("A pattern whose lengths exclude the attribute's is refused before anything is drawn")
  func impossibleLengths() throws {
    for (model, expected) in [
      (
        Self.model(pattern: "[a-z]{10}", maximum: 4),
        "matches nothing shorter than 10 characters; the maximum length is 4"
      ),
      (Self.model(pattern: "(ab|c)", minimum: 3), "matches nothing longer than 2 characters; the minimum length is 3"),
      (Self.model(pattern: "(yes|no)", unique: true), "cannot find a value distinct from the 2 taken"),
    ] {
      let container = try PersistentContainer(model: model, options: .inMemory)
      do {
        try StoreSeeder(rowsPerEntity: 10).seed(container.newContext())
        Issue.record("should be refused: \(expected)")
      } catch {
        #expect(error.description.contains(expected), "\(error)")
      }
      #expect(try container.newContext().count(for: FetchRequest<ManagedObject>(entityName: "Code")) == 0)
    }
  }
}
