import DataModel
import Persistence
import Testing

@Suite("Layout of relationships")
struct RelationshipLayoutTests {
  /// Photos' shape: `Album` (a sub-entity, numbered after `Asset`) owns the join table because
  /// its name sorts first; the relationship is ordered on the owner's side only.
  static let albums = """
    <entity name="Asset">
        <relationship name="albums" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Album" \
    inverseName="assets" inverseEntity="Album"/>
    </entity>
    <entity name="Collection" isAbstract="YES">
        <attribute name="title" optional="YES" attributeType="String"/>
    </entity>
    <entity name="Album" parentEntity="Collection">
        <relationship name="assets" optional="YES" toMany="YES" deletionRule="Nullify" ordered="YES" \
    destinationEntity="Asset" inverseName="albums" inverseEntity="Asset"/>
    </entity>
    """

  @Test("Many-to-many: the entity whose name sorts first owns Z_<n><REL>; columns and index follow")
  func manyToMany() throws {
    let schema = try LayoutModel.schema(Self.albums)
    #expect(schema.primaryKeyRows.map(\.name) == ["Asset", "Collection", "Album"])
    let join = try #require(schema.joinTables.first)
    #expect(schema.joinTables.count == 1)
    #expect(join.name == "Z_3ASSETS")
    #expect(schema.model[join.relationship].name == "assets")
    #expect(join.inverse.map { schema.model[$0].name } == "albums")
    #expect(
      join.table.createStatement()
        == "CREATE TABLE Z_3ASSETS ( Z_3ALBUMS INTEGER, Z_1ASSETS INTEGER, Z_FOK_1ASSETS INTEGER, "
        + "PRIMARY KEY (Z_3ALBUMS, Z_1ASSETS) )")
    #expect(
      join.index.createStatement() == "CREATE INDEX Z_3ASSETS_Z_1ASSETS_INDEX ON Z_3ASSETS (Z_1ASSETS, Z_3ALBUMS)")
    #expect(join.destinationOrderColumn == "Z_FOK_1ASSETS")
    #expect(join.sourceOrderColumn == nil)
    let album = try #require(schema.mapping(forEntityNamed: "Album"))
    #expect(
      album.toMany(named: "assets")?.storage
        == .joinTable(
          .init(
            table: "Z_3ASSETS", sourceColumn: "Z_3ALBUMS", destinationColumn: "Z_1ASSETS", orderColumn: "Z_FOK_1ASSETS")
        ))
    let asset = try #require(schema.mapping(forEntityNamed: "Asset"))
    #expect(
      asset.toMany(named: "albums")?.storage
        == .joinTable(
          .init(table: "Z_3ASSETS", sourceColumn: "Z_1ASSETS", destinationColumn: "Z_3ALBUMS", orderColumn: nil)))
    // The join table is created right after the table of the owner's hierarchy.
    #expect(
      schema.tables.map(\.name) == ["ZASSET", "ZCOLLECTION", "Z_3ASSETS", "Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"])
  }

  @Test("An ordered many-to-many keeps one Z_FOK_ column per ordered side, after the key columns")
  func orderedManyToMany() throws {
    let schema = try LayoutModel.schema(
      """
      <entity name="Playlist">
          <relationship name="songs" optional="YES" toMany="YES" deletionRule="Nullify" ordered="YES" \
      destinationEntity="Song" inverseName="playlists" inverseEntity="Song"/>
      </entity>
      <entity name="Song">
          <relationship name="playlists" optional="YES" toMany="YES" deletionRule="Nullify" ordered="YES" \
      destinationEntity="Playlist" inverseName="songs" inverseEntity="Playlist"/>
      </entity>
      """)
    let join = try #require(schema.joinTables.first)
    #expect(
      join.table.createStatement()
        == "CREATE TABLE Z_1SONGS ( Z_1PLAYLISTS INTEGER, Z_2SONGS INTEGER, Z_FOK_1PLAYLISTS INTEGER, "
        + "Z_FOK_2SONGS INTEGER, PRIMARY KEY (Z_1PLAYLISTS, Z_2SONGS) )")
    let song = try #require(schema.mapping(forEntityNamed: "Song"))
    #expect(
      song.toMany(named: "playlists")?.storage
        == .joinTable(
          .init(
            table: "Z_1SONGS", sourceColumn: "Z_2SONGS", destinationColumn: "Z_1PLAYLISTS",
            orderColumn: "Z_FOK_1PLAYLISTS")
        ))
  }

  static let people = """
    <entity name="Book">
        <attribute name="title" optional="YES" attributeType="String"/>
    </entity>
    <entity name="Passport">
        <attribute name="number" optional="YES" attributeType="String"/>
        <relationship name="holder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" \
    inverseName="passport" inverseEntity="Person"/>
    </entity>
    <entity name="Person">
        <attribute name="name" optional="YES" attributeType="String"/>
        <relationship name="favoriteBooks" optional="YES" toMany="YES" deletionRule="Nullify" ordered="YES" \
    destinationEntity="Book"/>
        <relationship name="followers" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" \
    inverseName="following" inverseEntity="Person"/>
        <relationship name="following" optional="YES" toMany="YES" deletionRule="Nullify" ordered="YES" \
    destinationEntity="Person" inverseName="followers" inverseEntity="Person"/>
        <relationship name="friends" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" \
    inverseName="friends" inverseEntity="Person"/>
        <relationship name="manager" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" \
    inverseName="reports" inverseEntity="Person"/>
        <relationship name="passport" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Passport" \
    inverseName="holder" inverseEntity="Passport"/>
        <relationship name="reports" optional="YES" toMany="YES" deletionRule="Nullify" ordered="YES" \
    destinationEntity="Person" inverseName="manager" inverseEntity="Person"/>
        <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Book"/>
    </entity>
    """

  @Test("Self-referencing to-one/to-many, one-to-one and to-one without inverse live in the source table")
  func toOnes() throws {
    let schema = try LayoutModel.schema(Self.people)
    #expect(
      schema.createTable("ZPERSON")
        == "CREATE TABLE ZPERSON ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZMANAGER INTEGER, "
        + "ZPASSPORT INTEGER, ZSHELF INTEGER, Z_FOK_MANAGER INTEGER, ZNAME VARCHAR )")
    #expect(
      schema.createTable("ZPASSPORT")
        == "CREATE TABLE ZPASSPORT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZHOLDER INTEGER, "
        + "ZNUMBER VARCHAR )")
    #expect(
      schema.createIndexes(on: "ZPERSON") == [
        "CREATE INDEX ZPERSON_ZMANAGER_INDEX ON ZPERSON (ZMANAGER)",
        "CREATE INDEX ZPERSON_ZPASSPORT_INDEX ON ZPERSON (ZPASSPORT)",
        "CREATE INDEX ZPERSON_ZSHELF_INDEX ON ZPERSON (ZSHELF)",
      ])
    let person = try #require(schema.mapping(forEntityNamed: "Person"))
    #expect(
      person.toMany(named: "reports")?.storage
        == .inverseForeignKey(
          .init(
            table: "ZPERSON", inverseName: "manager", foreignKeyColumn: "ZMANAGER", entityColumn: nil,
            orderColumn: "Z_FOK_MANAGER")))
    #expect(person.toOne(named: "shelf")?.orderColumn == nil)
  }

  @Test("A to-many without an inverse gets a join table whose source column ends in INVERSE")
  func toManyWithoutInverse() throws {
    let schema = try LayoutModel.schema(Self.people)
    let join = try #require(schema.joinTables.first { $0.name == "Z_3FAVORITEBOOKS" })
    #expect(join.inverse == nil)
    #expect(
      join.table.createStatement()
        == "CREATE TABLE Z_3FAVORITEBOOKS ( Z_3FAVORITEBOOKSINVERSE INTEGER, Z_1FAVORITEBOOKS INTEGER, "
        + "Z_FOK_1FAVORITEBOOKS INTEGER, PRIMARY KEY (Z_3FAVORITEBOOKSINVERSE, Z_1FAVORITEBOOKS) )")
    #expect(
      join.index.createStatement()
        == "CREATE INDEX Z_3FAVORITEBOOKS_Z_1FAVORITEBOOKS_INDEX ON Z_3FAVORITEBOOKS (Z_1FAVORITEBOOKS, "
        + "Z_3FAVORITEBOOKSINVERSE)")
  }

  @Test("On one entity, the pair member Core Data visits first owns the join table; a self-inverse is REFLEXIVE")
  func sameEntityManyToMany() throws {
    let schema = try LayoutModel.schema(Self.people)
    #expect(schema.joinTables.map(\.name) == ["Z_3FAVORITEBOOKS", "Z_3FOLLOWING", "Z_3FRIENDS"])
    let following = try #require(schema.joinTables.first { $0.name == "Z_3FOLLOWING" })
    #expect(
      following.table.createStatement()
        == "CREATE TABLE Z_3FOLLOWING ( Z_3FOLLOWERS INTEGER, Z_3FOLLOWING INTEGER, Z_FOK_3FOLLOWING INTEGER, "
        + "PRIMARY KEY (Z_3FOLLOWERS, Z_3FOLLOWING) )")
    let friends = try #require(schema.joinTables.first { $0.name == "Z_3FRIENDS" })
    #expect(friends.isReflexive)
    #expect(
      friends.table.createStatement()
        == "CREATE TABLE Z_3FRIENDS ( Z_3FRIENDS INTEGER, REFLEXIVE INTEGER, PRIMARY KEY (Z_3FRIENDS, REFLEXIVE) )")
    #expect(
      friends.index.createStatement() == "CREATE INDEX Z_3FRIENDS_REFLEXIVE_INDEX ON Z_3FRIENDS (REFLEXIVE, Z_3FRIENDS)"
    )
    let person = try #require(schema.mapping(forEntityNamed: "Person"))
    #expect(
      person.toMany(named: "followers")?.storage
        == .joinTable(
          .init(
            table: "Z_3FOLLOWING", sourceColumn: "Z_3FOLLOWING", destinationColumn: "Z_3FOLLOWERS", orderColumn: nil)))
    #expect(
      person.toMany(named: "friends")?.storage
        == .joinTable(
          .init(table: "Z_3FRIENDS", sourceColumn: "Z_3FRIENDS", destinationColumn: "REFLEXIVE", orderColumn: nil)))
    // Tables: ZBOOK, ZPASSPORT, ZPERSON and the joins Person owns.
    #expect(
      Array(schema.tables.map(\.name).prefix(6)) == [
        "ZBOOK", "ZPASSPORT", "ZPERSON", "Z_3FAVORITEBOOKS", "Z_3FOLLOWING", "Z_3FRIENDS",
      ])
  }

  @Test("A join column uses the relationship's suffixed column stem when a sibling took the name")
  func suffixedJoinColumn() throws {
    // Apple's Contacts store: Z_22PARENTGROUPS (Z_22CONTACTS, Z_19PARENTGROUPS1).
    let schema = try LayoutModel.schema(
      """
      <entity name="Record" isAbstract="YES"/>
      <entity name="AbstractGroup" parentEntity="Record" isAbstract="YES">
          <relationship name="parentGroups" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Group" \
      inverseName="childGroups" inverseEntity="Group"/>
      </entity>
      <entity name="Group" parentEntity="AbstractGroup">
          <relationship name="childGroups" optional="YES" toMany="YES" deletionRule="Nullify" \
      destinationEntity="AbstractGroup" inverseName="parentGroups" inverseEntity="AbstractGroup"/>
          <relationship name="contacts" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Contact" \
      inverseName="parentGroups" inverseEntity="Contact"/>
      </entity>
      <entity name="Contact" parentEntity="Record">
          <relationship name="parentGroups" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Group" \
      inverseName="contacts" inverseEntity="Group"/>
      </entity>
      """)
    #expect(schema.primaryKeyRows.map(\.name) == ["Record", "AbstractGroup", "Group", "Contact"])
    #expect(
      schema.joinTables.map { $0.table.createStatement() } == [
        "CREATE TABLE Z_2PARENTGROUPS ( Z_2CHILDGROUPS INTEGER, Z_3PARENTGROUPS INTEGER, "
          + "PRIMARY KEY (Z_2CHILDGROUPS, Z_3PARENTGROUPS) )",
        "CREATE TABLE Z_4PARENTGROUPS ( Z_4CONTACTS INTEGER, Z_3PARENTGROUPS1 INTEGER, "
          + "PRIMARY KEY (Z_4CONTACTS, Z_3PARENTGROUPS1) )",
      ])
    #expect(
      schema.createTable("ZRECORD") == "CREATE TABLE ZRECORD ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER )"
    )
  }
}
