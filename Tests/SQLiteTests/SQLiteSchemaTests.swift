import Testing

@testable import SQLite

/// Schema introspection and consistency checks.
@Suite struct SQLiteSchemaTests {
  @Test func tablesAndColumns() throws {
    let db = try SQLiteConnection()
    try db.execute(
      """
      CREATE TABLE ZTASK (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, ZTITLE VARCHAR NOT NULL DEFAULT 'untitled',
        ZDUE TIMESTAMP);
      CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
      CREATE TABLE pairs (a, b, PRIMARY KEY (b, a)) WITHOUT ROWID;
      """)
    #expect(try db.tableNames() == ["ZTASK", "Z_PRIMARYKEY", "pairs"])
    #expect(try db.tableExists("ztask"))
    #expect(try !db.tableExists("ZMISSING"))
    #expect(
      try db.columns(in: "ZTASK") == [
        SQLiteColumnInfo(
          name: "Z_PK", declaredType: "INTEGER", isNotNull: false, defaultValueSQL: nil, primaryKeyPosition: 1),
        SQLiteColumnInfo(
          name: "Z_ENT", declaredType: "INTEGER", isNotNull: false, defaultValueSQL: nil, primaryKeyPosition: 0),
        SQLiteColumnInfo(
          name: "ZTITLE", declaredType: "VARCHAR", isNotNull: true, defaultValueSQL: "'untitled'",
          primaryKeyPosition: 0),
        SQLiteColumnInfo(
          name: "ZDUE", declaredType: "TIMESTAMP", isNotNull: false, defaultValueSQL: nil, primaryKeyPosition: 0),
      ])
    #expect(try db.columns(in: "pairs").map(\.primaryKeyPosition) == [2, 1])
    #expect(try db.columns(in: "ZMISSING").isEmpty)
  }

  @Test func columnNamesOfEveryTableInOneQuery() throws {
    let db = try SQLiteConnection()
    #expect(try db.columnNamesByTable().isEmpty)
    try db.execute(
      #"""
      CREATE TABLE ZTASK (Z_PK INTEGER PRIMARY KEY AUTOINCREMENT, Z_ENT INTEGER, ZTITLE VARCHAR, ZDUE TIMESTAMP);
      CREATE TABLE "odd ""name""" ("b ""c""", a);
      CREATE TABLE pairs (a, b, PRIMARY KEY (b, a)) WITHOUT ROWID;
      CREATE VIEW ZVIEW AS SELECT ZTITLE FROM ZTASK;
      """#)
    let tables = try db.columnNamesByTable()
    #expect(
      tables == [
        "ZTASK": ["Z_PK", "Z_ENT", "ZTITLE", "ZDUE"], #"odd "name""#: [#"b "c""#, "a"], "pairs": ["a", "b"],
      ])
    // The same as asking table by table (AUTOINCREMENT made `sqlite_sequence`, left out by both).
    var byTable: [String: [String]] = [:]
    for name in try db.tableNames() { byTable[name] = try db.columns(in: name).map(\.name) }
    #expect(tables == byTable)
  }

  @Test func tableStatementsAsSQLiteKeepsThem() throws {
    let db = try SQLiteConnection()
    #expect(try db.tableStatements().isEmpty)
    try db.execute(
      #"""
      CREATE TABLE IF NOT EXISTS ZTASK ( Z_PK INTEGER PRIMARY KEY AUTOINCREMENT, ZTITLE VARCHAR );
      CREATE TABLE "odd ""name""" (a);
      CREATE INDEX ZTASK_TITLE ON ZTASK (ZTITLE);
      CREATE VIEW ZVIEW AS SELECT ZTITLE FROM ZTASK;
      ALTER TABLE "odd ""name""" ADD COLUMN b INTEGER;
      """#)
    // From `CREATE TABLE` on (`IF NOT EXISTS` dropped), as `ALTER TABLE` left it; indexes, views
    // and `sqlite_sequence` (made by AUTOINCREMENT) left out.
    #expect(
      try db.tableStatements() == [
        "ZTASK": "CREATE TABLE ZTASK ( Z_PK INTEGER PRIMARY KEY AUTOINCREMENT, ZTITLE VARCHAR )",
        #"odd "name""#: #"CREATE TABLE "odd ""name""" (a, b INTEGER)"#,
      ])
  }

  @Test func indexes() throws {
    let db = try SQLiteConnection()
    try db.execute(
      """
      CREATE TABLE ZTASK (Z_PK INTEGER PRIMARY KEY, ZTITLE VARCHAR UNIQUE, ZDUE TIMESTAMP, ZDONE INTEGER);
      CREATE INDEX ZTASK_ZDUE_INDEX ON ZTASK (ZDUE, ZDONE);
      CREATE INDEX ZTASK_PENDING ON ZTASK (lower(ZTITLE)) WHERE ZDONE = 0;
      """)
    let indexes = try db.indexes(on: "ZTASK")
    #expect(indexes.map(\.name) == ["ZTASK_PENDING", "ZTASK_ZDUE_INDEX", "sqlite_autoindex_ZTASK_1"])
    #expect(
      indexes[1]
        == SQLiteIndexInfo(
          name: "ZTASK_ZDUE_INDEX", isUnique: false, origin: .createIndex, isPartial: false,
          columns: ["ZDUE", "ZDONE"], sql: "CREATE INDEX ZTASK_ZDUE_INDEX ON ZTASK (ZDUE, ZDONE)"))
    #expect(indexes[0].isPartial)
    #expect(indexes[0].columns == [nil])
    #expect(
      indexes[2]
        == SQLiteIndexInfo(
          name: "sqlite_autoindex_ZTASK_1", isUnique: true, origin: .uniqueConstraint, isPartial: false,
          columns: ["ZTITLE"], sql: nil))
  }

  @Test func integrityCheckOnAGoodDatabaseIsOK() throws {
    let db = try SQLiteConnection()
    try db.execute("CREATE TABLE t (v UNIQUE); INSERT INTO t VALUES (1), (2)")
    #expect(try db.integrityCheck() == ["ok"])
  }

  @Test func foreignKeyCheckFindsDanglingReferences() throws {
    let db = try SQLiteConnection()
    #expect(try !db.foreignKeysEnabled())
    try db.execute(
      """
      CREATE TABLE parent (id INTEGER PRIMARY KEY);
      CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent (id));
      INSERT INTO parent VALUES (1);
      INSERT INTO child VALUES (10, 1), (11, 2);
      """)
    #expect(
      try db.foreignKeyCheck() == [
        SQLiteForeignKeyViolation(table: "child", rowID: 11, parentTable: "parent", foreignKeyID: 0)
      ])
    try db.setForeignKeysEnabled(true)
    #expect(try db.foreignKeysEnabled())
    let error = #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO child VALUES (12, 3)") }
    #expect(error?.extendedCode == .constraintForeignKey)
  }

  @Test func userVersion() throws {
    let db = try SQLiteConnection()
    #expect(try db.userVersion() == 0)
    try db.setUserVersion(-7)
    #expect(try db.userVersion() == -7)
  }
}
