import DataModel
import Persistence
import Testing

@Suite("Layout of entity hierarchies")
struct InheritanceLayoutTests {
  /// Three levels (Item → Note → Memo), three siblings sharing `title` (Document, Note, Photo),
  /// to-ones pointing into the hierarchy, an ordered to-many with its inverse.
  static let model = """
    <entity name="Item" isAbstract="YES">
        <attribute name="created" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
        <attribute name="name" optional="YES" attributeType="String"/>
        <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" \
    inverseName="items" inverseEntity="Folder"/>
    </entity>
    <entity name="Document" parentEntity="Item">
        <attribute name="pages" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
        <attribute name="title" optional="YES" attributeType="String"/>
    </entity>
    <entity name="Note" parentEntity="Item">
        <attribute name="body" optional="YES" attributeType="String"/>
        <attribute name="title" optional="YES" attributeType="String"/>
        <relationship name="attachments" optional="YES" toMany="YES" deletionRule="Cascade" \
    destinationEntity="Attachment" inverseName="owner" inverseEntity="Attachment"/>
    </entity>
    <entity name="Memo" parentEntity="Note">
        <attribute name="pinned" attributeType="Boolean" usesScalarValueType="YES"/>
        <attribute name="priority" attributeType="Integer 16" usesScalarValueType="YES"/>
    </entity>
    <entity name="Photo" parentEntity="Item">
        <attribute name="image" optional="YES" attributeType="Binary"/>
        <attribute name="title" optional="YES" attributeType="String"/>
    </entity>
    <entity name="Folder">
        <attribute name="name" optional="YES" attributeType="String"/>
        <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" ordered="YES" \
    destinationEntity="Item" inverseName="folder" inverseEntity="Item"/>
    </entity>
    <entity name="attachment">
    </entity>
    <entity name="Attachment">
        <attribute name="fileName" optional="YES" attributeType="String"/>
        <relationship name="item" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Item"/>
        <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Note" \
    inverseName="attachments" inverseEntity="Note"/>
    </entity>
    """

  @Test("Entity numbers are a pre-order walk, names compared case-insensitively at each level")
  func entityNumbers() throws {
    let schema = try LayoutModel.schema(Self.model)
    let rows = schema.primaryKeyRows.map { "\($0.entityNumber) \($0.name) \($0.superEntityNumber)" }
    #expect(
      rows == [
        "1 Attachment 0", "2 attachment 0", "3 Folder 0", "4 Item 0", "5 Document 4", "6 Note 4", "7 Memo 6",
        "8 Photo 4",
      ])
    #expect(schema.mapping(forEntityNamed: "Item")?.entityNumbersInHierarchy == [4, 5, 6, 7, 8])
    #expect(schema.mapping(forEntityNamed: "Note")?.entityNumbersInHierarchy == [6, 7])
    #expect(schema.mapping(forEntityNumber: 7)?.name == "Memo")
    #expect(schema.mapping(forEntityNumber: 9) == nil)
    let memo = try #require(schema.mapping(forEntityNamed: "Memo"))
    #expect(memo.superEntityNumber == 6)
    #expect(memo.tableName == "ZITEM")
    #expect(schema[memo.rootEntity].name == "Item")
    #expect(schema.mapping(forEntityNamed: "Item")?.isAbstract == true)
  }

  @Test("Sub-entities share the root's table; a name taken earlier gets the next numeric suffix")
  func sharedTable() throws {
    let schema = try LayoutModel.schema(Self.model)
    #expect(
      schema.createTable("ZITEM")
        == "CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFOLDER INTEGER, "
        + "Z_FOK_FOLDER INTEGER, ZPAGES INTEGER, ZPINNED INTEGER, ZPRIORITY INTEGER, ZCREATED TIMESTAMP, ZNAME VARCHAR, "
        + "ZTITLE VARCHAR, ZBODY VARCHAR, ZTITLE1 VARCHAR, ZTITLE2 VARCHAR, ZIMAGE BLOB )")
    #expect(schema.table(named: "ZNOTE") == nil)
    #expect(schema.mapping(forEntityNamed: "Document")?.column(forAttribute: "title")?.column == "ZTITLE")
    #expect(schema.mapping(forEntityNamed: "Note")?.column(forAttribute: "title")?.column == "ZTITLE1")
    #expect(schema.mapping(forEntityNamed: "Photo")?.column(forAttribute: "title")?.column == "ZTITLE2")
    // Inherited attributes are listed, in column order.
    let memo = try #require(schema.mapping(forEntityNamed: "Memo"))
    #expect(memo.attributes.map(\.column) == ["ZPINNED", "ZPRIORITY", "ZCREATED", "ZNAME", "ZBODY", "ZTITLE1"])
    #expect(memo.toOne(named: "folder")?.foreignKeyColumn == "ZFOLDER")
    #expect(memo.toOne(named: "folder")?.orderColumn == "Z_FOK_FOLDER")
  }

  @Test("Entity names that differ only in case get tables with a numeric suffix")
  func tableNameClash() throws {
    let schema = try LayoutModel.schema(Self.model)
    #expect(schema.mapping(forEntityNamed: "Attachment")?.tableName == "ZATTACHMENT")
    #expect(schema.mapping(forEntityNamed: "attachment")?.tableName == "ZATTACHMENT1")
  }

  @Test("A to-one into a hierarchy gets an entity column numbered after its destination")
  func entityColumns() throws {
    let schema = try LayoutModel.schema(Self.model)
    #expect(
      schema.createTable("ZATTACHMENT")
        == "CREATE TABLE ZATTACHMENT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZITEM INTEGER, "
        + "Z4_ITEM INTEGER, ZOWNER INTEGER, Z6_OWNER INTEGER, ZFILENAME VARCHAR )")
    let attachment = try #require(schema.mapping(forEntityNamed: "Attachment"))
    #expect(attachment.toOne(named: "item")?.entityColumn == "Z4_ITEM")
    #expect(attachment.toOne(named: "owner")?.entityColumn == "Z6_OWNER")
    // Memo has no sub-entities: a to-one to Folder (no sub-entities) has no entity column.
    #expect(schema.mapping(forEntityNamed: "Document")?.toOne(named: "folder")?.entityColumn == nil)
    let memo = try #require(schema.mapping(forEntityNamed: "Memo"))
    #expect(
      memo.toMany(named: "attachments")?.storage
        == .inverseForeignKey(
          .init(
            table: "ZATTACHMENT", inverseName: "owner", foreignKeyColumn: "ZOWNER", entityColumn: "Z6_OWNER",
            orderColumn: nil)))
    // Foreign keys are indexed; entity and ordering columns are not.
    #expect(
      schema.createIndexes(on: "ZATTACHMENT") == [
        "CREATE INDEX ZATTACHMENT_ZITEM_INDEX ON ZATTACHMENT (ZITEM)",
        "CREATE INDEX ZATTACHMENT_ZOWNER_INDEX ON ZATTACHMENT (ZOWNER)",
      ])
    #expect(schema.createIndexes(on: "ZITEM") == ["CREATE INDEX ZITEM_ZFOLDER_INDEX ON ZITEM (ZFOLDER)"])
  }

  @Test("An ordered to-many with a to-one inverse is stored by the inverse's foreign key and Z_FOK_ column")
  func orderedToMany() throws {
    let schema = try LayoutModel.schema(Self.model)
    let folder = try #require(schema.mapping(forEntityNamed: "Folder"))
    let items = try #require(folder.toMany(named: "items"))
    #expect(items.isOrdered)
    #expect(
      items.storage
        == .inverseForeignKey(
          .init(
            table: "ZITEM", inverseName: "folder", foreignKeyColumn: "ZFOLDER", entityColumn: nil,
            orderColumn: "Z_FOK_FOLDER")))
    #expect(schema.joinTables.isEmpty)
  }
}
