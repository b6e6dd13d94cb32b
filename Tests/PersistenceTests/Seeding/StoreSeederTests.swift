import Foundation
import Persistence
import TestSupport
import Testing

@Suite("Seeding stores")
struct StoreSeederTests {
  /// Every attribute type with rules, and every kind of relationship: required to-one,
  /// to-many with counts, one-to-one, many-to-many, a reflexive one, and an abstract parent.
  static let model = ContextFixtures.model(
    """
    <entity name="Account" representedClassName="Account">
      <attribute name="handle" attributeType="String" minValueString="3" maxValueString="12" regularExpressionString="[a-z][a-z0-9]*"/>
      <attribute name="email" attributeType="String"/>
      <attribute name="level" attributeType="Integer 16" minValueString="1" maxValueString="5"/>
      <attribute name="serial" attributeType="Integer 32" minValueString="100" maxValueString="100000"/>
      <attribute name="big" optional="YES" attributeType="Integer 64"/>
      <attribute name="rating" attributeType="Double" minValueString="0.5" maxValueString="4.5"/>
      <attribute name="ratio" attributeType="Float" minValueString="0.1" maxValueString="0.3"/>
      <attribute name="balance" attributeType="Decimal" minValueString="-10" maxValueString="10"/>
      <attribute name="active" attributeType="Boolean"/>
      <attribute name="joined" attributeType="Date" minDateTimeInterval="0" maxDateTimeInterval="31536000"/>
      <attribute name="avatar" attributeType="Binary" minValueString="3" maxValueString="5"/>
      <attribute name="token" attributeType="UUID"/>
      <attribute name="site" attributeType="URI"/>
      <attribute name="blob" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData"/>
      <attribute name="note" optional="YES" attributeType="String"/>
      <attribute name="scratch" optional="YES" transient="YES" attributeType="String"/>
      <relationship name="profile" maxCount="1" deletionRule="Cascade" destinationEntity="Profile" inverseName="account" inverseEntity="Profile"/>
      <relationship name="posts" toMany="YES" minCount="1" maxCount="3" deletionRule="Cascade" destinationEntity="Post" inverseName="author" inverseEntity="Post"/>
      <relationship name="groups" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Group" inverseName="members" inverseEntity="Group"/>
      <relationship name="mentor" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Account" inverseName="mentees" inverseEntity="Account"/>
      <relationship name="mentees" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Account" inverseName="mentor" inverseEntity="Account"/>
      <uniquenessConstraints>
        <uniquenessConstraint><constraint value="handle"/></uniquenessConstraint>
        <uniquenessConstraint><constraint value="email"/><constraint value="level"/></uniquenessConstraint>
        <uniquenessConstraint><constraint value="serial"/></uniquenessConstraint>
      </uniquenessConstraints>
    </entity>
    <entity name="Profile" representedClassName="Profile">
      <attribute name="bio" attributeType="String" maxValueString="40"/>
      <relationship name="account" maxCount="1" deletionRule="Nullify" destinationEntity="Account" inverseName="profile" inverseEntity="Account"/>
    </entity>
    <entity name="Post" representedClassName="Post" isAbstract="YES">
      <attribute name="title" attributeType="String"/>
      <relationship name="author" maxCount="1" deletionRule="Nullify" destinationEntity="Account" inverseName="posts" inverseEntity="Account"/>
    </entity>
    <entity name="Article" representedClassName="Article" parentEntity="Post">
      <attribute name="words" attributeType="Integer 32" minValueString="1"/>
    </entity>
    <entity name="Photo" representedClassName="Photo" parentEntity="Post">
      <attribute name="pixels" attributeType="Binary"/>
    </entity>
    <entity name="Group" representedClassName="Group">
      <attribute name="name" attributeType="String"/>
      <relationship name="members" toMany="YES" minCount="2" deletionRule="Nullify" destinationEntity="Account" inverseName="groups" inverseEntity="Account"/>
    </entity>
    """)

  static func seeded(rows: Int = 30, seed: UInt64 = 1, in directory: TemporaryDirectory, name: String = "seed.sqlite")
    throws -> (PersistentContainer, URL)
  {
    let url = directory.url.appendingPathComponent(name)
    let container = try PersistentContainer(model: model, options: .file(url))
    try StoreSeeder(rowsPerEntity: rows, seed: seed).seed(container.newContext())
    return (container, url)
  }

  /// The rows of the entity tables and Z_PRIMARYKEY (not Z_METADATA, whose UUID differs).
  static func contents(_ url: URL) throws -> [String] {
    try StoreRows.dump(url).filter { !$0.hasPrefix("Z_METADATA|") }
  }

  @Test("Every rule of the model holds for the seeded objects, and the counts are as asked")
  func valid() throws {
    let directory = try TemporaryDirectory()
    let (container, url) = try Self.seeded(in: directory)
    let context = container.newContext()
    func objects(_ entity: String) throws -> [ManagedObject] {
      try context.fetch(FetchRequest<ManagedObject>(entityName: entity))
    }
    let accounts = try objects("Account")
    #expect(accounts.count == 30)
    #expect(try objects("Article").count >= 30 && objects("Photo").count >= 30)
    // Each account's one profile is its own: one-to-one, required on both sides.
    #expect(try objects("Profile").count == 30)
    var handles = Set<String>()
    var profiles = Set<ObjectID>()
    for account in accounts {
      guard case .string(let handle)? = try account.value(forKey: "handle") else {
        Issue.record("no handle")
        continue
      }
      handles.insert(handle)
      #expect((3...12).contains(handle.count))
      let posts = try account.objects(forKey: "posts")
      #expect((1...3).contains(posts.count))
      #expect(posts.allSatisfy { ["Article", "Photo"].contains($0.entityName) })
      let profile = try #require(try account.object(forKey: "profile"))
      #expect(profiles.insert(profile.objectID).inserted)
      if let mentor = try account.object(forKey: "mentor") { #expect(mentor !== account) }
      #expect(try account.value(forKey: "scratch") == nil)
      if case .float(let ratio)? = try account.value(forKey: "ratio") { #expect(ratio >= 0.1 && ratio <= 0.3) }
    }
    #expect(handles.count == 30)
    for group in try objects("Group") { #expect(try group.objects(forKey: "members").count >= 2) }
    // Every object is in the store exactly once, with its entity number.
    #expect(try StoreRows.count("ZPOST", in: url) == (try objects("Post").count))
  }

  @Test("The same seed gives the same store; another seed another one")
  func deterministic() throws {
    let directory = try TemporaryDirectory()
    let (_, first) = try Self.seeded(seed: 42, in: directory, name: "a.sqlite")
    let (_, second) = try Self.seeded(seed: 42, in: directory, name: "b.sqlite")
    let (_, third) = try Self.seeded(seed: 43, in: directory, name: "c.sqlite")
    let contents = try Self.contents(first)
    #expect(contents.count > 200)
    #expect(contents == (try Self.contents(second)))
    #expect(contents != (try Self.contents(third)))
  }

  @Test("Seeding a store again adds objects whose unique values differ from those stored")
  func seedTwice() throws {
    let directory = try TemporaryDirectory()
    let (container, _) = try Self.seeded(rows: 20, in: directory)
    try StoreSeeder(rowsPerEntity: 20, seed: 1).seed(container.newContext())
    let context = container.newContext()
    let accounts = try context.fetch(FetchRequest<ManagedObject>(entityName: "Account"))
    #expect(accounts.count == 40)
    #expect(Set(try accounts.map { try $0.value(forKey: "serial") }).count == 40)
  }

  @Test("Rules no data can keep are refused with the entity and property, and nothing is saved")
  func impossible() throws {
    let cases: [(String, String)] = [
      (
        #"<entity name="E" representedClassName="E"><attribute name="n" attributeType="Integer 16" minValueString="5" maxValueString="3"/></entity>"#,
        "E.n: its minimum 5.0 is above its maximum 3.0"
      ),
      (
        #"<entity name="E" representedClassName="E"><attribute name="f" attributeType="Boolean"/><uniquenessConstraints><uniquenessConstraint><constraint value="f"/></uniquenessConstraint></uniquenessConstraints></entity>"#,
        "E.f: a Boolean has only two distinct values"
      ),
      (
        #"<entity name="E" representedClassName="E"><attribute name="n" attributeType="Integer 16" minValueString="1" maxValueString="3"/><uniquenessConstraints><uniquenessConstraint><constraint value="n"/></uniquenessConstraint></uniquenessConstraints></entity>"#,
        "E.n: its range 1…3 has no more distinct values"
      ),
      (
        #"<entity name="E" representedClassName="E"><relationship name="d" maxCount="1" destinationEntity="D"/></entity><entity name="D" representedClassName="D" isAbstract="YES"/>"#,
        "E.d: a destination is required, but no D object is seeded"
      ),
    ]
    for (xml, expected) in cases {
      let container = try PersistentContainer(model: ContextFixtures.model(xml), options: .inMemory)
      let context = container.newContext()
      do {
        try StoreSeeder(rowsPerEntity: 10).seed(context)
        Issue.record("should be refused: \(expected)")
      } catch {
        #expect(error.description.hasPrefix(expected), "\(error)")
      }
      #expect(!context.hasChanges)
      #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: "E")) == 0)
    }
  }

  @Test(
    "Every corpus model seeds at its first and current versions",
    .enabled(if: TestPaths.corpus != nil, Comment(rawValue: TestPaths.corpusAbsentReason)))
  func corpus() async throws {
    var versions = 0
    for url in TestPaths.corpusModels() {
      // Long synchronous work would hold a thread of the small cooperative pool that other
      // tests' tasks need; give it back between models.
      await Task.yield()
      let result = ModelReader.read(path: url.path)
      guard let bundle = result.bundle, !result.diagnostics.containsErrors else { continue }
      for index in Set([0, bundle.currentVersionIndex]).sorted() {
        let version = bundle.versions[index]
        let container = try PersistentContainer(model: version, options: .inMemory)
        do {
          try StoreSeeder(rowsPerEntity: 5, seed: 9).seed(container.newContext())
          versions += 1
        } catch {
          Issue.record("\(url.lastPathComponent) \(version.name): \(error)")
        }
        await Task.yield()
      }
    }
    #expect(versions > 20)
  }
}
