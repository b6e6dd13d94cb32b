import Foundation
import Testing

@testable import Persistence

/// `[c]`, `[d]`, `[cd]` and no option on every string operator, with non-ASCII data, through the
/// compiled SQL and the in-memory evaluator.
///
/// The case from a user's task list: `title CONTAINS[c] "cafe"` found "café au lait", as if `[c]`
/// ignored accents. In NSPredicate only `[d]` does; `[c]` folds case alone, and a match never
/// ends inside a letter with its accent. The titles mix precomposed (NFC) and decomposed (NFD)
/// spellings, `ß` (which `[c]` folds to `ss`) and Turkish `İ` (which folds to `i` + a combining
/// dot, so it equals `i` only with `[cd]`). Both evaluators must give the answer written here.
@Suite("String options on non-ASCII text")
struct StringOptionFidelityTests {
  static let titles: [Int: String] = [
    1: "café au lait",  // é precomposed (NFC)
    2: "cafe\u{301} au lait",  // é as e + COMBINING ACUTE ACCENT (NFD)
    3: "CAFE",
    4: "Straße",
    5: "İstanbul",
    6: "istanbul",
    7: "Résumé",
  ]

  static let cases: [(format: String, expected: [Int])] = [
    // CONTAINS
    (#"title CONTAINS "cafe""#, []),
    (#"title CONTAINS[c] "cafe""#, [3]),
    (#"title CONTAINS[d] "cafe""#, [1, 2]),
    (#"title CONTAINS[cd] "cafe""#, [1, 2, 3]),
    (#"title CONTAINS[c] "CAFÉ""#, [1, 2]),
    (#"title CONTAINS "é""#, [1, 7]),
    (#"title CONTAINS[c] "SS""#, [4]),
    (#"title CONTAINS[c] "\u0301""#, []),
    // BEGINSWITH
    (#"title BEGINSWITH "cafe""#, []),
    (#"title BEGINSWITH[c] "cafe""#, [3]),
    (#"title BEGINSWITH[d] "cafe""#, [1, 2]),
    (#"title BEGINSWITH[cd] "CAFE""#, [1, 2, 3]),
    (#"title BEGINSWITH[c] "i""#, [6]),
    (#"title BEGINSWITH[cd] "i""#, [5, 6]),
    // ENDSWITH
    (#"title ENDSWITH[c] "e""#, [3, 4]),
    (#"title ENDSWITH[d] "e""#, [4, 7]),
    (#"title ENDSWITH[cd] "E""#, [3, 4, 7]),
    (#"title ENDSWITH[c] "É""#, [7]),
    // ==
    (#"title == "café au lait""#, [1]),
    (#"title ==[c] "CAFÉ AU LAIT""#, [1, 2]),
    (#"title ==[c] "cafe au lait""#, []),
    (#"title ==[d] "cafe au lait""#, [1, 2]),
    (#"title ==[cd] "CAFE AU LAIT""#, [1, 2]),
    (#"title ==[c] "STRASSE""#, [4]),
    (#"title ==[c] "istanbul""#, [6]),
    (#"title ==[cd] "ISTANBUL""#, [5, 6]),
    // LIKE
    (#"title LIKE "cafe*""#, []),
    (#"title LIKE[c] "cafe*""#, [3]),
    (#"title LIKE[c] "caf?*""#, [1, 2, 3]),
    (#"title LIKE[d] "cafe*""#, [1, 2]),
    (#"title LIKE[cd] "cafe*""#, [1, 2, 3]),
    (#"title LIKE[c] "r?sum?""#, [7]),
    (#"title LIKE[c] "?stanbul""#, [5, 6]),
    (#"title LIKE[c] "istanbul""#, [6]),
    // MATCHES (ICU; [c] is the regex's own case-insensitive mode)
    (#"title MATCHES[c] "cafe""#, [3]),
    (#"title MATCHES[d] "cafe au lait""#, [1, 2]),
    (#"title MATCHES[cd] "CAFE.*""#, [1, 2, 3]),
    // IN
    (#"title IN[c] {"CAFÉ AU LAIT", "strasse"}"#, [1, 2, 4]),
    (#"title IN[c] {"cafe au lait"}"#, []),
    (#"title IN[cd] {"cafe au lait", "ISTANBUL"}"#, [1, 2, 5, 6]),
    (#""cafe" IN[c] title"#, [3]),
    (#""cafe" IN[cd] title"#, [1, 2, 3]),
  ]

  static func context() throws -> ObjectContext {
    let model = ContextFixtures.model(
      """
      <entity name="Note" representedClassName="Note">
          <attribute name="key" attributeType="Integer 32" usesScalarValueType="YES"/>
          <attribute name="title" attributeType="String"/>
      </entity>
      """)
    let container = try PersistentContainer(model: model, options: .inMemory)
    let writer = container.newContext()
    for (key, title) in titles.sorted(by: { $0.key < $1.key }) {
      let note = try writer.insert(entityNamed: "Note")
      try note.setValue(.integer(Int64(key)), forKey: "key")
      try note.setValue(.string(title), forKey: "title")
    }
    try writer.save()
    return container.newContext()
  }

  static func keys(_ objects: [ManagedObject]) throws -> [Int] {
    try objects.map { object -> Int in
      guard case .integer(let key) = try object.value(forKey: "key") else { return -1 }
      return Int(key)
    }.sorted()
  }

  @Test("Compiled SQL and the evaluator give NSPredicate's answer", arguments: cases)
  func agree(format: String, expected: [Int]) throws {
    let context = try Self.context()
    let predicate = try FetchPredicate(format: format)
    var request = FetchRequest<ManagedObject>(entityName: "Note", predicate: predicate)
    request.includesPendingChanges = false
    let bySQL = try Self.keys(try context.fetch(request))
    let everything = try context.fetch(FetchRequest<ManagedObject>(entityName: "Note"))
    let inMemory = try Self.keys(try everything.filter { try predicate.evaluate(with: $0) })
    #expect(bySQL == expected, "SQL: \(format)")
    #expect(inMemory == expected, "in memory: \(format)")
  }
}
