import DataModel
import Foundation
import Persistence
import Testing

@Suite("Layout of indexes")
struct IndexLayoutTests {
  static let books = """
    <entity name="Author">
        <attribute name="name" optional="YES" attributeType="String"/>
        <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" \
    inverseName="author" inverseEntity="Book"/>
    </entity>
    <entity name="Book">
        <attribute name="isbn" optional="YES" attributeType="String"/>
        <attribute name="pages" optional="YES" attributeType="Integer 32" usesScalarValueType="NO"/>
        <attribute name="rating" optional="YES" attributeType="Double" usesScalarValueType="NO"/>
        <attribute name="title" optional="YES" attributeType="String" indexed="YES"/>
        <attribute name="year" optional="YES" attributeType="Integer 16" usesScalarValueType="NO"/>
        <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" \
    inverseName="books" inverseEntity="Author" indexed="YES"/>
        <fetchIndex name="byYearAndTitle">
            <fetchIndexElement property="year" type="Binary" order="ascending"/>
            <fetchIndexElement property="title" type="Binary" order="descending"/>
        </fetchIndex>
        <fetchIndex name="byRating">
            <fetchIndexElement property="rating" type="Binary" order="ascending"/>
        </fetchIndex>
        <fetchIndex name="byISBNDescending">
            <fetchIndexElement property="isbn" type="Binary" order="descending"/>
        </fetchIndex>
        <fetchIndex name="byTitleLength">
            <fetchIndexElement expression="title.length" expressionType="Integer 64" type="Binary" order="ascending"/>
        </fetchIndex>
        <fetchIndex name="byPagesExpression">
            <fetchIndexElement expression="pages" expressionType="Integer 32" type="Binary" order="ascending"/>
        </fetchIndex>
        <fetchIndex name="byAuthor">
            <fetchIndexElement property="author" type="Binary" order="ascending"/>
            <fetchIndexElement property="title" type="Binary" order="ascending"/>
        </fetchIndex>
        <uniquenessConstraints>
            <uniquenessConstraint>
                <constraint value="isbn"/>
            </uniquenessConstraint>
            <uniquenessConstraint>
                <constraint value="title"/>
                <constraint value="author"/>
            </uniquenessConstraint>
        </uniquenessConstraints>
        <compoundIndexes>
            <compoundIndex>
                <index value="year"/>
                <index value="rating"/>
            </compoundIndex>
        </compoundIndexes>
    </entity>
    """

  @Test("Index names, columns, order and uniqueness for every kind of declared index")
  func bookIndexes() throws {
    let schema = try LayoutModel.schema(Self.books)
    #expect(
      schema.createIndexes(on: "ZBOOK") == [
        "CREATE INDEX ZBOOK_ZAUTHOR_INDEX ON ZBOOK (ZAUTHOR)",
        // Indexed properties, in Core Data's hash-table order (not name order).
        "CREATE INDEX Z_Book_rating ON ZBOOK (ZRATING COLLATE BINARY ASC)",
        "CREATE INDEX Z_Book_author ON ZBOOK (ZAUTHOR COLLATE BINARY ASC)",
        "CREATE INDEX Z_Book_title ON ZBOOK (ZTITLE COLLATE BINARY ASC)",
        "CREATE INDEX Z_Book_year_rating ON ZBOOK (ZYEAR COLLATE BINARY ASC, ZRATING COLLATE BINARY ASC)",
        "CREATE INDEX Z_Book_byYearAndTitle ON ZBOOK (ZYEAR COLLATE BINARY ASC, ZTITLE COLLATE BINARY DESC)",
        "CREATE INDEX Z_Book_byRating ON ZBOOK (ZRATING COLLATE BINARY ASC)",
        "CREATE INDEX Z_Book_byISBNDescending ON ZBOOK (ZISBN COLLATE BINARY DESC)",
        "CREATE INDEX Z_Book_byPagesExpression ON ZBOOK (ZPAGES COLLATE BINARY ASC)",
        "CREATE INDEX Z_Book_byAuthor ON ZBOOK (ZAUTHOR COLLATE BINARY ASC, ZTITLE COLLATE BINARY ASC)",
        "CREATE UNIQUE INDEX Z_Book_UNIQUE_isbn ON ZBOOK (ZISBN COLLATE BINARY ASC)",
        "CREATE UNIQUE INDEX Z_Book_UNIQUE_title_author ON ZBOOK (ZTITLE COLLATE BINARY ASC, ZAUTHOR COLLATE BINARY ASC)",
      ])
    #expect(schema.unsupportedIndexes.map(\.name) == ["Z_Book_byTitleLength"])
    let kinds = schema.indexes.filter { $0.table == "ZBOOK" }.map(\.kind)
    #expect(kinds.first == .foreignKey)
    #expect(kinds.filter { $0 == .uniquenessConstraint }.count == 2)
    #expect(schema.indexes.filter(\.isUnique).map(\.name) == ["Z_Book_UNIQUE_isbn", "Z_Book_UNIQUE_title_author"])
  }

  /// A messenger's model (shipped for ten versions): fetch indexes naming to-many relationships,
  /// which Xcode compiles. One mixes an attribute with two to-manys, one names a to-many alone.
  static let conversations = """
    <entity name="Account">
        <attribute name="state" optional="YES" attributeType="Integer 16" usesScalarValueType="NO"/>
        <relationship name="conversations" optional="YES" toMany="YES" deletionRule="Nullify" \
    destinationEntity="Conversation" inverseName="accounts" inverseEntity="Conversation"/>
        <relationship name="groupConversations" optional="YES" toMany="YES" deletionRule="Nullify" \
    destinationEntity="Conversation" inverseName="owner" inverseEntity="Conversation"/>
        <relationship name="usedByQuorums" optional="YES" toMany="YES" deletionRule="Nullify" \
    destinationEntity="Conversation" inverseName="quorum" inverseEntity="Conversation"/>
        <fetchIndex name="byState">
            <fetchIndexElement property="state" type="Binary" order="ascending"/>
            <fetchIndexElement property="conversations" type="Binary" order="ascending"/>
            <fetchIndexElement property="groupConversations" type="Binary" order="ascending"/>
        </fetchIndex>
        <fetchIndex name="byQuorums">
            <fetchIndexElement property="usedByQuorums" type="Binary" order="ascending"/>
        </fetchIndex>
    </entity>
    <entity name="Conversation">
        <attribute name="title" optional="YES" attributeType="String"/>
        <relationship name="accounts" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Account" \
    inverseName="conversations" inverseEntity="Account"/>
        <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Account" \
    inverseName="groupConversations" inverseEntity="Account"/>
        <relationship name="quorum" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Account" \
    inverseName="usedByQuorums" inverseEntity="Account"/>
    </entity>
    """

  @Test("A fetch index naming to-many relationships indexes the rest; one naming only to-manys is left out")
  func fetchIndexOnToMany() throws {
    let (version, diagnostics) = ModelReader.readVersion(
      xml: """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="">
        \(Self.conversations)
        </model>
        """, name: "Messenger")
    let model = try #require(version)
    // Warnings, not errors: the model loads, lays out, dumps and generates.
    #expect(!diagnostics.containsErrors)
    #expect(
      ModelValidator.validate(model).filter { $0.code == "index-on-to-many" }.map(\.severity) == [
        .warning, .warning, .warning,
      ])
    let schema = StoreSchema(model: model)
    #expect(
      schema.createIndexes(on: "ZACCOUNT") == [
        "CREATE INDEX Z_Account_byState ON ZACCOUNT (ZSTATE COLLATE BINARY ASC)"
      ])
    #expect(schema.unsupportedIndexes.map(\.name) == ["Z_Account_byQuorums"])
    // The version hash covers fetch indexes only through the entity's properties: the same
    // entity without its indexes has the same hash.
    let plain = try LayoutModel.version(
      Self.conversations.replacingOccurrences(
        of: #"(?s)\s*<fetchIndex name.*?</fetchIndex>"#, with: "", options: .regularExpression))
    #expect(plain.entities[0].fetchIndexes.isEmpty)
    #expect(model.versionHashes.entityHashes == plain.versionHashes.entityHashes)
  }

  @Test("Core Data's property order is a CFString hash-table order")
  func hashOrder() throws {
    // LoopKit's PumpEvent: four properties indexed through one-element fetch indexes, created by
    // Core Data as type, mutable, date, uploaded (neither file nor name order).
    let schema = try LayoutModel.schema(
      """
      <entity name="PumpEvent">
          <attribute name="createdAt" attributeType="Date" usesScalarValueType="NO"/>
          <attribute name="date" attributeType="Date" usesScalarValueType="NO"/>
          <attribute name="deliveredUnits" optional="YES" attributeType="Double" usesScalarValueType="NO"/>
          <attribute name="doseType" optional="YES" attributeType="String"/>
          <attribute name="duration" attributeType="Double" usesScalarValueType="NO"/>
          <attribute name="mutable" attributeType="Boolean" usesScalarValueType="YES"/>
          <attribute name="raw" optional="YES" attributeType="Binary"/>
          <attribute name="title" optional="YES" attributeType="String"/>
          <attribute name="type" optional="YES" attributeType="String"/>
          <attribute name="unit" optional="YES" attributeType="String"/>
          <attribute name="uploaded" attributeType="Boolean" usesScalarValueType="NO"/>
          <attribute name="value" optional="YES" attributeType="Double" usesScalarValueType="NO"/>
          <fetchIndex name="d"><fetchIndexElement property="date" type="Binary" order="ascending"/></fetchIndex>
          <fetchIndex name="t"><fetchIndexElement property="type" type="Binary" order="ascending"/></fetchIndex>
          <fetchIndex name="u"><fetchIndexElement property="uploaded" type="Binary" order="ascending"/></fetchIndex>
          <fetchIndex name="m"><fetchIndexElement property="mutable" type="Binary" order="ascending"/></fetchIndex>
      </entity>
      """)
    let indexed = schema.indexes.filter { $0.kind == .indexedProperty }.map(\.name)
    #expect(indexed == ["Z_PumpEvent_type", "Z_PumpEvent_mutable", "Z_PumpEvent_date", "Z_PumpEvent_uploaded"])
  }

  @Test("An index whose name another index already took is left out, not sent to SQLite twice")
  func duplicateNames() throws {
    let schema = try LayoutModel.schema(
      """
      <entity name="Tag">
          <attribute name="name" optional="YES" attributeType="String"/>
          <fetchIndex name="name"><fetchIndexElement property="name" type="Binary" order="ascending"/></fetchIndex>
      </entity>
      """)
    #expect(schema.indexes.map(\.name) == ["Z_Tag_name"])
    #expect(schema.indexes.first?.kind == .indexedProperty)
    #expect(schema.unsupportedIndexes.map(\.name) == ["Z_Tag_name"])
  }
}
