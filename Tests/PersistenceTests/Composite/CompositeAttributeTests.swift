import Foundation
import Persistence
import SQLite
import TestSupport
import Testing

/// Composite attributes are stored as Core Data flattens them — one column per leaf, named after
/// the leaf — and come back on fetch, by key path (`address.street`) or as a whole
/// (`compositeValue(forKey:)`); export writes them as nested JSON objects and import reads them.
@Suite("Composite attributes")
struct CompositeAttributeTests {
  static let model = ContextFixtures.model(
    """
    <entity name="Venue" representedClassName="Venue">
      <attribute name="name" attributeType="String"/>
      <attribute name="address" optional="YES" attributeType="Composite" composite="Address"/>
      <attribute name="contact" attributeType="Composite" composite="Contact"/>
    </entity>
    <composite name="Address">
      <attribute name="street" optional="YES" attributeType="String"/>
      <attribute name="location" optional="YES" attributeType="Composite" composite="Geo"/>
      <attribute name="zip" optional="YES" attributeType="Integer 32"/>
    </composite>
    <composite name="Geo">
      <attribute name="lat" optional="YES" attributeType="Double"/>
      <attribute name="lon" optional="YES" attributeType="Double"/>
    </composite>
    <composite name="Contact">
      <attribute name="email" attributeType="String"/>
      <attribute name="phone" optional="YES" attributeType="String"/>
    </composite>
    """)

  struct Store {
    let directory: TemporaryDirectory
    let url: URL
    let container: PersistentContainer

    init() throws {
      directory = try TemporaryDirectory()
      url = directory.url.appendingPathComponent("Venues.sqlite")
      container = try PersistentContainer(model: CompositeAttributeTests.model, options: .file(url))
    }

    func venue(in context: ObjectContext) throws -> ManagedObject {
      try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Venue")).first)
    }

    /// The raw columns of the only row.
    func row(_ columns: String) throws -> [SQLiteValue] {
      let connection = try SQLiteConnection(.file(url.path), mode: .readOnly)
      defer { try? connection.close() }
      return try connection.firstRow(SQLiteSQL(verbatim: "SELECT \(columns) FROM ZVENUE")) { $0.rowValues } ?? []
    }
  }

  static func insertVenue(_ context: ObjectContext) throws -> ManagedObject {
    let venue = try context.insert(entityNamed: "Venue")
    try venue.setValue(.string("Hall"), forKey: "name")
    try venue.setValue(.string("1 Main St"), forKey: "address.street")
    try venue.setValue(.double(48.85), forKey: "address.location.lat")
    try venue.setValue(.double(2.35), forKey: "address.location.lon")
    try venue.setCompositeValue(["email": .string("hall@example.com")], forKey: "contact")
    return venue
  }

  @Test("Leaves are saved in their own columns and fetched back by key path and as a whole")
  func saveAndFetch() throws {
    let store = try Store()
    let context = store.container.newContext()
    _ = try Self.insertVenue(context)
    try context.save()

    #expect(
      try store.row("ZNAME, ZSTREET, ZLAT, ZLON, ZZIP, ZEMAIL, ZPHONE") == [
        .text("Hall"), .text("1 Main St"), .real(48.85), .real(2.35), .null, .text("hall@example.com"), .null,
      ])

    let freshContext = store.container.newContext()
    let fresh = try store.venue(in: freshContext)
    #expect(try fresh.value(forKey: "address.street") == .string("1 Main St"))
    #expect(try fresh.value(forKey: "address.location.lat") == .double(48.85))
    #expect(try fresh.value(forKey: "address.zip") == nil)
    #expect(
      try fresh.compositeValue(forKey: "address") == [
        "street": .string("1 Main St"), "location.lat": .double(48.85), "location.lon": .double(2.35),
      ])
    #expect(try fresh.compositeValue(forKey: "address.location") == ["lat": .double(48.85), "lon": .double(2.35)])
    #expect(try fresh.compositeValue(forKey: "contact") == ["email": .string("hall@example.com")])

    // Clearing a composite clears every leaf.
    try fresh.setCompositeValue(nil, forKey: "address")
    try freshContext.save()
    #expect(try store.row("ZSTREET, ZLAT, ZLON, ZZIP") == [.null, .null, .null, .null])
    #expect(try store.venue(in: store.container.newContext()).compositeValue(forKey: "address") == nil)
  }

  @Test("Setting a composite checks its members and their types, changing nothing on error")
  func setChecks() throws {
    let container = try PersistentContainer(model: Self.model, options: .inMemory)
    let venue = try container.newContext().insert(entityNamed: "Venue")
    #expect(throws: ObjectAccessError.unknownAttribute("address.city", entity: "Venue")) {
      try venue.setCompositeValue(["street": .string("x"), "city": .string("Paris")], forKey: "address")
    }
    #expect(throws: ObjectAccessError.self) {
      try venue.setCompositeValue(["zip": .string("75001")], forKey: "address")
    }
    #expect(throws: ObjectAccessError.unknownAttribute("name", entity: "Venue")) {
      try venue.compositeValue(forKey: "name")
    }
    #expect(try venue.compositeValue(forKey: "address") == nil)
  }

  @Test("A required leaf of a required composite is validated; an optional composite may be empty")
  func validation() throws {
    let container = try PersistentContainer(model: Self.model, options: .inMemory)
    let context = container.newContext()
    let venue = try context.insert(entityNamed: "Venue")
    try venue.setValue(.string("Hall"), forKey: "name")
    let error = #expect(throws: SaveError.self) { try context.save() }
    guard case .validation(let failures)? = error else {
      Issue.record("expected a validation failure, got \(String(describing: error))")
      return
    }
    #expect(failures.map(\.property) == ["contact.email"])
    try venue.setValue(.string("a@b.c"), forKey: "contact.email")
    try context.save()
  }

  @Test("Export writes composites as nested objects; import reads them back")
  func exportAndImport() throws {
    let store = try Store()
    let context = store.container.newContext()
    _ = try Self.insertVenue(context)
    try context.save()

    let document = try StoreExport.json(of: store.container.newContext())
    let venue = try #require(document["Venue"]?.arrayValue?.first)
    #expect(venue.objectValue?.map(\.key) == ["_id", "name", "address", "contact"])
    #expect(
      JSONWriter.compact(try #require(venue["address"]))
        == #"{"street":"1 Main St","location":{"lat":48.85,"lon":2.35},"zip":null}"#)
    #expect(JSONWriter.compact(try #require(venue["contact"])) == #"{"email":"hall@example.com","phone":null}"#)

    let other = try Store()
    try StoreImport.importJSON(JSONWriter.compact(document), into: other.container.newContext())
    let imported = try other.venue(in: other.container.newContext())
    #expect(
      try imported.compositeValue(forKey: "address") == (try store.venue(in: context).compositeValue(forKey: "address"))
    )
    #expect(try imported.value(forKey: "contact.email") == .string("hall@example.com"))
  }

  @Test("Import names the member and the problem of a composite it cannot read")
  func importProblems() throws {
    let container = try PersistentContainer(model: Self.model, options: .inMemory)
    let text = """
      {"Venue": [{"_id": "v1", "name": "Hall", "address": {"street": 5, "city": "Paris", "location": {"lat": "north"}},
                  "contact": {"email": "a@b.c"}},
                 {"_id": "v2", "name": "Barn", "address": "somewhere", "contact": null}]}
      """
    do {
      try StoreImport.importJSON(text, into: container.newContext())
      Issue.record("the import passed")
    } catch {
      let properties = error.problems.compactMap(\.property)
      #expect(properties.contains("address.street"))
      #expect(properties.contains("address.city"))
      #expect(properties.contains("address.location.lat"))
      #expect(properties.contains("address"))
      #expect(error.problems.contains { $0.message.contains("no member 'city'") })
      // v2's null contact leaves the required contact.email empty: validation says so.
      #expect(properties.contains("contact.email"))
    }
    #expect(try container.newContext().count(for: FetchRequest<ManagedObject>(entityName: "Venue")) == 0)
  }

  @Test("Predicates and sorts read composite leaves by key path, in SQL and in memory")
  func predicates() throws {
    let store = try Store()
    let context = store.container.newContext()
    let hall = try Self.insertVenue(context)
    let barn = try context.insert(entityNamed: "Venue")
    try barn.setValue(.string("Barn"), forKey: "name")
    try barn.setValue(.double(10), forKey: "address.location.lat")
    try barn.setValue(.string("barn@example.com"), forKey: "contact.email")
    try context.save()

    func names(_ format: String, sortedBy sort: String = "name", in context: ObjectContext) throws -> [String] {
      var request = FetchRequest<ManagedObject>(entityName: "Venue", predicate: try FetchPredicate(format: format))
      request.sortDescriptors = [try FetchSortDescriptor(parsing: sort)]
      return try context.fetch(request).map { try $0.value(forKey: "name")?.description ?? "nil" }
    }
    let fresh = store.container.newContext()
    #expect(try names("address.street == '1 Main St'", in: fresh) == ["Hall"])
    #expect(try names("address.location.lat > 20", in: fresh) == ["Hall"])
    #expect(try names("address.location.lat < 20 OR address.street == nil", in: fresh) == ["Barn"])
    #expect(
      try names("contact.email ENDSWITH 'example.com'", sortedBy: "address.location.lat", in: fresh) == [
        "Barn", "Hall",
      ])
    #expect(try names("address.street BEGINSWITH[c] '1 main'", in: fresh) == ["Hall"])

    // Unsaved changes are judged in memory.
    try hall.setValue(.double(5), forKey: "address.location.lat")
    #expect(try names("address.location.lat < 20", in: context) == ["Barn", "Hall"])
    #expect(try FetchPredicate(format: "address.location.lat == 5").evaluate(with: hall))
    #expect(try !FetchPredicate(format: "address.location.lat == 5").evaluate(with: barn))

    // A member the composite does not have is an error naming the key path.
    #expect(throws: PersistenceError.self) { try names("address.city == 'Paris'", in: fresh) }
  }

  @Test("fetchDictionaries gives every leaf by key path")
  func dictionaries() throws {
    let store = try Store()
    let context = store.container.newContext()
    _ = try Self.insertVenue(context)
    try context.save()
    let rows = try store.container.newContext().fetchDictionaries(FetchRequest<ManagedObject>(entityName: "Venue"))
    #expect(rows.first?["address.location.lon"] == .attribute(.double(2.35)))
    #expect(rows.first?["contact.email"] == .attribute(.string("hall@example.com")))
  }
}
