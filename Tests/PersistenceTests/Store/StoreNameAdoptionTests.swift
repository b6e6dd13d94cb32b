import Foundation
import Persistence
import SQLite
import TestSupport
import Testing

/// Stores whose join tables are named otherwise than modelc derives.
///
/// The case: a messenger's store, written by Core Data, named a join column `Z_23USERS1` where
/// modelc derived `Z_23USERS`, and a self-referential join table after the other relationship
/// of its pair; `store export` failed with `no such column: j.Z_23USERS`. Whatever the naming
/// rule, a store must open with the names it has where they are unambiguous, and every place
/// it differs must be reported. The test writes a store, then renames its join table and
/// column with SQL as such a store would have them, and reads and writes it again.
@Suite("Adopting a store's own names")
struct StoreNameAdoptionTests {
  static let model = ContextFixtures.model(
    """
    <entity name="Client" representedClassName="Client">
        <attribute name="label" optional="YES" attributeType="String"/>
        <relationship name="trustedByClients" optional="YES" toMany="YES" deletionRule="Nullify" \
    destinationEntity="Client" inverseName="trustedClients" inverseEntity="Client"/>
        <relationship name="trustedClients" optional="YES" toMany="YES" deletionRule="Nullify" \
    destinationEntity="Client" inverseName="trustedByClients" inverseEntity="Client"/>
    </entity>
    <entity name="Reaction" representedClassName="Reaction">
        <attribute name="emoji" optional="YES" attributeType="String"/>
        <relationship name="users" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="User" \
    inverseName="reactions" inverseEntity="User"/>
    </entity>
    <entity name="User" representedClassName="User">
        <attribute name="name" optional="YES" attributeType="String"/>
        <relationship name="reactions" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Reaction" \
    inverseName="users" inverseEntity="Reaction"/>
    </entity>
    """)

  /// A store with two clients trusting each other one way and a reaction of one user, its join
  /// table of clients renamed after the other relationship and the users column of the other
  /// join table given a number.
  static func renamedStore() throws -> (url: URL, clientTable: String, storeClientTable: String, usersColumn: String) {
    let url = TestPaths.temporaryDirectory("adoption").appendingPathComponent("Messages.sqlite")
    let schema = StoreSchema(model: model)
    let clients = try #require(schema.joinTables.first { $0.isReflexive == false && $0.name.hasPrefix("Z_1") })
    let reactions = try #require(schema.joinTables.first { $0.name.hasPrefix("Z_2") })
    do {
      let context = try PersistentContainer(model: model, options: .file(url)).newContext()
      let alice = try context.insert(entityNamed: "Client")
      try alice.setValue(.string("alice"), forKey: "label")
      let bob = try context.insert(entityNamed: "Client")
      try bob.setValue(.string("bob"), forKey: "label")
      try alice.setObjects([bob], forKey: "trustedClients")
      let user = try context.insert(entityNamed: "User")
      try user.setValue(.string("Ada"), forKey: "name")
      let reaction = try context.insert(entityNamed: "Reaction")
      try reaction.setValue(.string("👍"), forKey: "emoji")
      try reaction.setObjects([user], forKey: "users")
      try context.save()
    }
    let ownerName = schema.model[clients.relationship].name
    let otherName = ownerName == "trustedClients" ? "trustedByClients" : "trustedClients"
    let storeClientTable = "Z_1" + otherName.uppercased()
    let usersColumn = reactions.destinationColumn
    let connection = try SQLiteConnection(.file(url.path), mode: .readWrite)
    try connection.execute(SQLiteSQL(verbatim: "ALTER TABLE \(clients.name) RENAME TO \(storeClientTable)"))
    try connection.execute(
      SQLiteSQL(verbatim: "ALTER TABLE \(reactions.name) RENAME COLUMN \(usersColumn) TO \(usersColumn)1"))
    return (url, clients.name, storeClientTable, usersColumn)
  }

  @Test("Renamed join tables and columns are read and written under the store's names, and reported")
  func adopted() throws {
    let (url, clientTable, storeClientTable, usersColumn) = try Self.renamedStore()
    let container = try PersistentContainer(model: Self.model, options: .file(url))
    #expect(
      container.layoutDifferences.map(\.kind) == [.adoptedTable, .adoptedColumn],
      "\(container.layoutDifferences)")
    #expect(container.layoutDifferences[0].table == clientTable)
    #expect(container.layoutDifferences[0].storeName == storeClientTable)
    #expect(container.layoutDifferences[1].column == usersColumn)
    #expect(container.layoutDifferences[1].storeName == usersColumn + "1")
    #expect("\(container.layoutDifferences[1])".contains("is \(usersColumn)1 in the store; the store's name is used"))

    let context = container.newContext()
    let clients = try context.fetch(
      FetchRequest<ManagedObject>(entityName: "Client", sortDescriptors: [FetchSortDescriptor("label")]))
    #expect(try clients[0].objects(forKey: "trustedClients").map { try $0.value(forKey: "label") } == [.string("bob")])
    #expect(
      try clients[1].objects(forKey: "trustedByClients").map { try $0.value(forKey: "label") } == [.string("alice")])
    let user = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "User")).first)
    #expect(try user.objects(forKey: "reactions").map { try $0.value(forKey: "emoji") } == [.string("👍")])
    // Queries through the join tables, and writes into them.
    let trusting = try context.fetch(
      FetchRequest<ManagedObject>(
        entityName: "Client", predicate: try FetchPredicate(format: "ANY trustedClients.label == 'bob'")))
    #expect(try trusting.map { try $0.value(forKey: "label") } == [.string("alice")])
    try clients[1].setObjects([clients[0]], forKey: "trustedClients")
    try context.save()
    let reread = try PersistentContainer(model: Self.model, options: .file(url)).newContext()
    let bob = try #require(
      try reread.fetch(
        FetchRequest<ManagedObject>(entityName: "Client", predicate: try FetchPredicate(format: "label == 'bob'"))
      ).first)
    #expect(try bob.objects(forKey: "trustedClients").map { try $0.value(forKey: "label") } == [.string("alice")])
  }

  @Test("A store's open knows a layout as derived from its tables' text, and compares columns otherwise")
  func laidOutAsDerived() throws {
    let url = TestPaths.temporaryDirectory("adoption").appendingPathComponent("Text.sqlite")
    _ = try PersistentContainer(model: Self.model, options: .file(url))
    let schema = StoreSchema(model: Self.model)
    let connection = try SQLiteConnection(.file(url.path))
    defer { try? connection.close() }
    func laidOutAsDerived() throws -> Bool {
      schema.isLaidOutAsDerived(tableStatements: try connection.tableStatements())
    }

    // As made here, and with the tables modelc and Core Data keep besides the model's.
    #expect(try laidOutAsDerived())
    let full = schema.adopting(existingTables: try connection.columnNamesByTable())
    #expect(full.differences.isEmpty && !full.adoptsStoreNames)
    try connection.execute("CREATE TABLE ATRANSACTION (Z_PK INTEGER PRIMARY KEY)")
    try connection.execute("CREATE TABLE ACHANGE (Z_PK INTEGER PRIMARY KEY)")
    #expect(try laidOutAsDerived())

    // Any other table, a table's text changed, a table missing: the columns are compared.
    try connection.execute("CREATE TABLE ZLEGACY (Z_PK INTEGER PRIMARY KEY)")
    #expect(try !laidOutAsDerived())
    try connection.execute("DROP TABLE ZLEGACY")
    #expect(try laidOutAsDerived())
    try connection.execute("ALTER TABLE ZUSER ADD COLUMN ZNICKNAME VARCHAR")
    #expect(try !laidOutAsDerived())
    // The open compared the columns and reported the one added.
    #expect(
      try PersistentContainer(model: Self.model, options: .file(url)).layoutDifferences.map(\.description)
        == ["column ZNICKNAME of ZUSER in the store is not in the layout derived from the model"])
    let join = try #require(schema.joinTables.first)
    var statements = try connection.tableStatements()
    statements[join.name] = nil
    #expect(!schema.isLaidOutAsDerived(tableStatements: statements))
  }

  @Test("A store created here matches its derived layout; what cannot be matched is reported, not guessed")
  func reported() throws {
    let url = TestPaths.temporaryDirectory("adoption").appendingPathComponent("Plain.sqlite")
    #expect(try PersistentContainer(model: Self.model, options: .file(url)).layoutDifferences.isEmpty)
    let schema = StoreSchema(model: Self.model)
    var tables: [String: [String]] = [:]
    for table in schema.tables { tables[table.name] = table.columns.map(\.name) }
    let join = try #require(schema.joinTables.first { $0.name.hasPrefix("Z_2") })
    tables[join.name] = [join.sourceColumn, "ZSOMETHINGELSE"]
    tables["ZUSER"]?.append("ZNICKNAME")
    tables["ZLEGACY"] = ["Z_PK"]
    let adoption = schema.adopting(existingTables: tables)
    #expect(!adoption.adoptsStoreNames)
    #expect(
      adoption.differences.map(\.description).sorted()
        == [
          "column ZNICKNAME of ZUSER in the store is not in the layout derived from the model",
          "column ZSOMETHINGELSE of \(join.name) in the store is not in the layout derived from the model",
          "column \(join.destinationColumn) of \(join.name) (join table of Reaction.users ⇄ User.reactions) is not in the store",
          "table ZLEGACY of the store is not in the layout derived from the model",
        ].sorted())
  }
}
