import Foundation
import Persistence
import Testing

@Suite("Fetch sort descriptors")
struct FetchSortDescriptorTests {
  static func row(_ name: String, _ values: [String: PredicateRuntimeValue]) -> Record {
    var values = values
    values["name"] = .value(name)
    return Record(values)
  }

  static func names(_ records: [Record]) -> [String] {
    records.map { record in
      guard case .scalar(.string(let name)) = record.values["name"] else { return "?" }
      return name
    }
  }

  static let rows = [
    row("a", ["priority": .value(2), "title": .value("banana"), "due": .value(date(30))]),
    row("b", ["priority": .null, "title": .value("Apple"), "due": .null]),
    row("c", ["priority": .value(1.5), "title": .value("apple"), "due": .value(date(10))]),
    row("d", ["priority": .value(2), "title": .value("Éclair"), "due": .value(date(20))]),
    row("e", ["priority": .value(true), "title": .null, "due": .value(date(-5))]),
  ]

  @Test func nilSortsFirstAscendingAndLastDescending() throws {
    #expect(
      Self.names(try FetchSortDescriptor.sorted(Self.rows, using: [FetchSortDescriptor("priority")])) == [
        "b", "e", "c", "a", "d",
      ])
    #expect(
      Self.names(try FetchSortDescriptor.sorted(Self.rows, using: [FetchSortDescriptor("priority", ascending: false)]))
        == ["a", "d", "c", "e", "b"])
  }

  @Test func stringsSortByCodePointUnlessFolded() throws {
    #expect(
      Self.names(try FetchSortDescriptor.sorted(Self.rows, using: [FetchSortDescriptor("title")])) == [
        "e", "b", "c", "a", "d",
      ])
    #expect(
      Self.names(try FetchSortDescriptor.sorted(Self.rows, using: [.caseInsensitive("title")])) == [
        "e", "b", "c", "a", "d",
      ])
    #expect(
      Self.names(
        try FetchSortDescriptor.sorted(
          Self.rows, using: [FetchSortDescriptor("title", options: [.caseInsensitive, .diacriticInsensitive])]))
        == ["e", "b", "c", "a", "d"])
    let words = ["b", "B", "a", "é", "E", "e"].map { Self.row($0, ["w": .value($0)]) }
    #expect(
      Self.names(try FetchSortDescriptor.sorted(words, using: [FetchSortDescriptor("w")])) == [
        "B", "E", "a", "b", "e", "é",
      ])
    #expect(
      Self.names(try FetchSortDescriptor.sorted(words, using: [.caseInsensitive("w")])) == [
        "a", "b", "B", "E", "e", "é",
      ])
    #expect(
      Self.names(
        try FetchSortDescriptor.sorted(
          words, using: [FetchSortDescriptor("w", options: [.caseInsensitive, .diacriticInsensitive])]))
        == ["a", "b", "B", "é", "E", "e"])
  }

  @Test func datesSortChronologically() throws {
    #expect(
      Self.names(try FetchSortDescriptor.sorted(Self.rows, using: [FetchSortDescriptor("due")])) == [
        "b", "e", "c", "d", "a",
      ])
  }

  @Test func laterDescriptorsTieBreakerAndStability() throws {
    let byPriorityThenTitle = [FetchSortDescriptor("priority", ascending: false), FetchSortDescriptor("title")]
    #expect(
      Self.names(try FetchSortDescriptor.sorted(Self.rows, using: byPriorityThenTitle)) == ["a", "d", "c", "e", "b"])
    let same = ["x", "y", "z"].map { Self.row($0, ["k": .value(1)]) }
    #expect(Self.names(try FetchSortDescriptor.sorted(same, using: [FetchSortDescriptor("k")])) == ["x", "y", "z"])
    #expect(
      Self.names(try FetchSortDescriptor.sorted(same.reversed(), using: [FetchSortDescriptor("k")])) == ["z", "y", "x"])
    let reverseByName = try FetchSortDescriptor.sorted(same, using: [FetchSortDescriptor("k")]) { lhs, rhs in
      let (l, r) = (Self.names([lhs])[0], Self.names([rhs])[0])
      return l == r ? .orderedSame : (l > r ? .orderedAscending : .orderedDescending)
    }
    #expect(Self.names(reverseByName) == ["z", "y", "x"])
    #expect(Self.names(try FetchSortDescriptor.sorted(Self.rows, using: [])) == ["a", "b", "c", "d", "e"])
  }

  @Test func sortsThroughToOneRelationshipsAndMixedElementTypes() throws {
    let projects = ["Zeta", "Alpha"].map { Record(["name": .value($0)]) }
    let tasks = [
      Self.row("t1", ["project": .object(projects[0])]), Self.row("t2", ["project": .object(projects[1])]),
      Self.row("t3", ["project": .null]),
    ]
    #expect(
      Self.names(try FetchSortDescriptor.sorted(tasks, using: [FetchSortDescriptor("project.name")])) == [
        "t3", "t2", "t1",
      ])
    let mixed: [any PredicateEvaluable] = tasks
    #expect(try FetchSortDescriptor.sorted(mixed, using: [FetchSortDescriptor("project.name")]).count == 3)
    #expect(
      try FetchSortDescriptor.compare(tasks[0], tasks[1], using: [FetchSortDescriptor("project.name")])
        == .orderedDescending)
    #expect(try FetchSortDescriptor("project.name").compare(tasks[2], tasks[1]) == .orderedAscending)
  }

  @Test func toManyKeysCannotBeSorted() {
    let tagged = Record(["tags": .objects([Record(["name": .value("x")])])])
    #expect(throws: PredicateEvaluationError.invalidSortKey("tags")) {
      try FetchSortDescriptor("tags").sortKey(of: tagged)
    }
    #expect(throws: PredicateEvaluationError.invalidSortKey("tags.name")) {
      try FetchSortDescriptor.sorted([tagged, tagged], using: [FetchSortDescriptor("tags.name")])
    }
  }

  @Test func valueOrderAcrossKinds() {
    let ascending = FetchSortDescriptor("k")
    let ordered: [PredicateValue] = [
      .null, .double(-.infinity), .integer(-1), .bool(false), .decimal(Decimal(string: "0.5")!), .double(1),
      .date(date(-1)), .date(date(0)), .string(""), .string("B"), .string("a"), .data(Data([0])), .data(Data([0, 1])),
      .uuid(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!), .url(URL(string: "https://a")!), .array([1]),
    ]
    for (index, value) in ordered.enumerated() {
      #expect(ascending.compareValues(value, value) == .orderedSame, "\(value)")
      for later in ordered[(index + 1)...] {
        #expect(ascending.compareValues(value, later) == .orderedAscending, "\(value) < \(later)")
        #expect(ascending.compareValues(later, value) == .orderedDescending, "\(later) > \(value)")
      }
    }
    #expect(FetchSortDescriptor("k", ascending: false).compareValues(.null, 1) == .orderedDescending)
    #expect(ascending.compareValues(.integer(2), .double(2)) == .orderedSame)
  }

  @Test(
    "parses the command-line list syntax",
    arguments: [
      (
        "priority:asc,dueDate:desc",
        [FetchSortDescriptor("priority"), FetchSortDescriptor("dueDate", ascending: false)]
      ),
      ("priority", [FetchSortDescriptor("priority")]),
      (
        " a , b:DESCENDING , c:Ascending ",
        [FetchSortDescriptor("a"), FetchSortDescriptor("b", ascending: false), FetchSortDescriptor("c")]
      ),
      ("title[c]:desc", [FetchSortDescriptor("title", ascending: false, options: .caseInsensitive)]),
      ("title[cd]", [FetchSortDescriptor("title", options: [.caseInsensitive, .diacriticInsensitive])]),
      ("project.name:asc", [FetchSortDescriptor("project.name")]),
      ("#size:desc", [FetchSortDescriptor("size", ascending: false)]),
      ("", []),
      ("   ", []),
    ])
  func parsesList(_ text: String, _ expected: [FetchSortDescriptor]) throws {
    #expect(try FetchSortDescriptor.list(parsing: text) == expected)
    #expect(try FetchSortDescriptor.list(parsing: expected.map(\.description).joined(separator: ",")) == expected)
  }

  @Test(
    "reports list syntax errors with columns",
    arguments: [
      (
        "priority:up", PredicateSyntaxError.Kind.unknownKeyword,
        "column 10: unknown sort direction 'up'; expected asc or desc"
      ),
      (
        "a,priority:dsc", .unknownKeyword,
        "column 12: unknown sort direction 'dsc'; expected asc or desc (did you mean desc?)"
      ),
      ("a:", .unknownKeyword, "column 3: unknown sort direction ''; expected asc or desc"),
      ("a,,b", .unexpectedToken, "column 3: expected a sort key such as 'title:asc' but found end of input"),
      ("a, first name:asc", .invalidKeyPath, "column 4: invalid key path 'first name' in sort key 'first name:asc'"),
      ("title[x]:asc", .unknownKeyword, "column 6: unknown comparison option 'x'; expected c, d or n (as in [cd])"),
      ("a..b", .invalidKeyPath, "column 1: invalid key path 'a..b' in sort key 'a..b'"),
    ])
  func listErrors(_ text: String, _ kind: PredicateSyntaxError.Kind, _ description: String) {
    do {
      let descriptors = try FetchSortDescriptor.list(parsing: text)
      Issue.record("expected an error, parsed \(descriptors)")
    } catch {
      #expect(error.kind == kind)
      #expect(error.description == description)
    }
  }

  @Test func singleDescriptorParsingAndDescription() throws {
    #expect(try FetchSortDescriptor(parsing: "dueDate:desc") == FetchSortDescriptor("dueDate", ascending: false))
    #expect(FetchSortDescriptor("priority").description == "priority:asc")
    #expect(
      FetchSortDescriptor("title", ascending: false, options: [.caseInsensitive, .diacriticInsensitive]).description
        == "title[cd]:desc")
    #expect(FetchSortDescriptor("size").description == "#size:asc")
  }
}
