import Foundation
import Migration
import Persistence
import TestSupport
import Testing

/// Lightweight migration carries composite attributes: their leaves are columns of the layout
/// like any other, so adding a composite, adding a member to one, and changing other attributes
/// beside one all migrate with every leaf value kept.
@Suite("Migrating composite attributes")
struct CompositeMigrationTests {
  static func version(_ name: String, _ body: String) -> ModelVersion {
    let xml = """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="">
      \(body)
      </model>
      """
    let (version, diagnostics) = ModelReader.readVersion(xml: xml, name: name)
    precondition(version != nil && !diagnostics.containsErrors, "\(diagnostics)")
    return version!
  }

  /// V1: a venue with a name. V2: an address composite (street, a nested location). V3: the
  /// address gains a zip code, and the venue an optional rating.
  static let bundle = ModelBundle(
    name: "Venues",
    versions: [
      version(
        "Venues",
        """
        <entity name="Venue" representedClassName="Venue">
          <attribute name="name" attributeType="String"/>
        </entity>
        """),
      version(
        "Venues 2",
        """
        <entity name="Venue" representedClassName="Venue">
          <attribute name="name" attributeType="String"/>
          <attribute name="address" optional="YES" attributeType="Composite" composite="Address"/>
        </entity>
        <composite name="Address">
          <attribute name="street" optional="YES" attributeType="String"/>
          <attribute name="location" optional="YES" attributeType="Composite" composite="Geo"/>
        </composite>
        <composite name="Geo">
          <attribute name="lat" optional="YES" attributeType="Double"/>
          <attribute name="lon" optional="YES" attributeType="Double"/>
        </composite>
        """),
      version(
        "Venues 3",
        """
        <entity name="Venue" representedClassName="Venue">
          <attribute name="name" attributeType="String"/>
          <attribute name="rating" optional="YES" attributeType="Integer 16"/>
          <attribute name="address" optional="YES" attributeType="Composite" composite="Address"/>
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
        """),
    ])

  @Test("Adding a composite, then a member and an attribute beside it, keeps every value")
  func migrates() throws {
    let directory = TestPaths.temporaryDirectory("composite-migration")
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = directory.appendingPathComponent("Venues.sqlite")
    do {
      let container = try PersistentContainer(
        model: Self.bundle.versions[0], options: .file(store))
      let context = container.newContext()
      let venue = try context.insert(entityNamed: "Venue")
      try venue.setValue(.string("Hall"), forKey: "name")
      try context.save()
    }

    try StoreMigration(storeURL: store, bundle: Self.bundle).run(
      to: Self.bundle.versions[1], options: .init(keepsBackup: false))
    do {
      let container = try PersistentContainer(model: Self.bundle.versions[1], options: .file(store))
      let context = container.newContext()
      let venue = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Venue")).first)
      #expect(try venue.value(forKey: "name") == .string("Hall"))
      #expect(try venue.compositeValue(forKey: "address") == nil)
      try venue.setCompositeValue(
        ["street": .string("1 Main St"), "location.lat": .double(48.85), "location.lon": .double(2.35)],
        forKey: "address")
      try context.save()
    }

    try StoreMigration(storeURL: store, bundle: Self.bundle).run(
      to: Self.bundle.versions[2], options: .init(keepsBackup: false))
    #expect(try StoreMigration(storeURL: store, bundle: Self.bundle).storeVersion().name == "Venues 3")
    let container = try PersistentContainer(model: Self.bundle.versions[2], options: .file(store))
    let venue = try #require(
      try container.newContext().fetch(FetchRequest<ManagedObject>(entityName: "Venue")).first)
    #expect(try venue.value(forKey: "name") == .string("Hall"))
    #expect(try venue.value(forKey: "rating") == nil)
    #expect(
      try venue.compositeValue(forKey: "address") == [
        "street": .string("1 Main St"), "location.lat": .double(48.85), "location.lon": .double(2.35),
      ])
  }
}
