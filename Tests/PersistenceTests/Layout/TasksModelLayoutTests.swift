import DataModel
import Persistence
import TestSupport
import Testing

@Suite("Layout of the Tasks model")
struct TasksModelLayoutTests {
  @Test("Tasks 3 creates exactly these statements")
  func tasks3() throws {
    let bundle = try ModelBundle(contentsOf: TestPaths.tasksModel.path)
    let schema = StoreSchema(model: try #require(bundle.version(named: "Tasks 3")))
    #expect(
      schema.createStatements() == [
        "CREATE TABLE ZPROJECT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
        "CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
        "CREATE TABLE Z_2TASKS ( Z_2TAGS INTEGER, Z_3TASKS INTEGER, PRIMARY KEY (Z_2TAGS, Z_3TASKS) )",
        "CREATE TABLE ZTASK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZISCOMPLETED INTEGER, "
          + "ZPRIORITY INTEGER, ZPROJECT INTEGER, ZDUEDATE TIMESTAMP, ZNOTES VARCHAR, ZTITLE VARCHAR, ZID BLOB )",
        "CREATE INDEX Z_2TASKS_Z_3TASKS_INDEX ON Z_2TASKS (Z_3TASKS, Z_2TAGS)",
        "CREATE INDEX ZTASK_ZPROJECT_INDEX ON ZTASK (ZPROJECT)",
        "CREATE UNIQUE INDEX Z_Project_UNIQUE_name ON ZPROJECT (ZNAME COLLATE BINARY ASC)",
        "CREATE UNIQUE INDEX Z_Tag_UNIQUE_name ON ZTAG (ZNAME COLLATE BINARY ASC)",
        "CREATE INDEX Z_Task_byPriorityAndDueDate ON ZTASK (ZPRIORITY COLLATE BINARY ASC, ZDUEDATE COLLATE BINARY ASC)",
        "CREATE UNIQUE INDEX Z_Task_UNIQUE_id ON ZTASK (ZID COLLATE BINARY ASC)",
        "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
        "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
        "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
      ])
    #expect(
      schema.primaryKeyRows.map { "\($0.entityNumber) \($0.name) \($0.superEntityNumber)" } == [
        "1 Project 0", "2 Tag 0", "3 Task 0",
      ])
    let task = try #require(schema.mapping(forEntityNamed: "Task"))
    #expect(task.toOne(named: "project")?.foreignKeyColumn == "ZPROJECT")
    #expect(
      task.toMany(named: "tags")?.storage
        == .joinTable(
          .init(table: "Z_2TASKS", sourceColumn: "Z_3TASKS", destinationColumn: "Z_2TAGS", orderColumn: nil)))
    let project = try #require(schema.mapping(forEntityNamed: "Project"))
    #expect(
      project.toMany(named: "tasks")?.storage
        == .inverseForeignKey(
          .init(
            table: "ZTASK", inverseName: "project", foreignKeyColumn: "ZPROJECT", entityColumn: nil, orderColumn: nil)))
    #expect(task.column(forAttribute: "id")?.encoding == .uuid)
  }

  @Test("Every Tasks version lays out without left-out indexes, and the first has no joins")
  func everyVersion() throws {
    let bundle = try ModelBundle(contentsOf: TestPaths.tasksModel.path)
    for version in bundle.versions {
      let schema = StoreSchema(model: version)
      #expect(schema.unsupportedIndexes.isEmpty, "\(version.name)")
      #expect(schema.entities.count == version.entities.count)
    }
    let first = StoreSchema(model: try #require(bundle.version(named: "Tasks")))
    #expect(first.joinTables.isEmpty)
    #expect(
      first.createTable("ZTASK")
        == "CREATE TABLE ZTASK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZISCOMPLETED INTEGER, "
        + "ZPRIORITY INTEGER, ZDUEDATE TIMESTAMP, ZTITLE VARCHAR, ZID BLOB )")
  }
}
