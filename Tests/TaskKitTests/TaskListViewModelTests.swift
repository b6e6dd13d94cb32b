import Foundation
import Persistence
import Synchronization
import TaskKit
import Testing

/// A clock the tests set: the dates a view model gives to completions and notes.
final class TestClock: Sendable {
  private let date = Mutex(Date(timeIntervalSinceReferenceDate: 816_000_000))

  var now: Date { date.withLock { $0 } }

  func advance(by seconds: TimeInterval) {
    date.withLock { $0 += seconds }
  }
}

@MainActor
@Suite("Task list view model")
struct TaskListViewModelTests {
  let container: PersistentContainer
  let clock = TestClock()
  let model: TaskListViewModel

  init() throws {
    container = try TaskStore.inMemory()
    model = TaskListViewModel(container: container, now: { [clock] in clock.now })
  }

  /// The task as another context reads it from the store: what was saved. (A summary, made while
  /// that context is alive: an object's relationships read as empty once its context is gone.)
  func stored(_ task: Task) throws -> TaskSummary {
    let context = container.newContext()
    let request = Task.fetchRequest(predicate: Task.Keys.taskID == task.taskID)
    return TaskSummary(try #require(try context.fetch(request).first))
  }

  func day(_ text: String) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .current
    let parts = text.split(separator: "-").compactMap { Int($0) }
    return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))!
  }

  @Test("Adding a task, as the tutorial's testAddTask does")
  func addTask() throws {
    let task = try model.add(title: "Buy milk", dueDate: day("2026-12-01"), priority: .high, notes: ["2 liters"])
    #expect(model.tasks.count == 1)
    #expect(model.tasks.first === task)
    #expect(task.title == "Buy milk")
    #expect(task.priority == TaskPriority.high.storedValue)
    #expect(task.isCompleted == false)
    #expect(task.completedAt == nil)
    #expect(task.notes.map(\.text) == ["2 liters"])
    #expect(task.notes.map(\.createdAt) == [clock.now])
    let saved = try stored(task)
    #expect(saved.title == "Buy milk")
    #expect(saved.notes.map(\.text) == ["2 liters"])
  }

  @Test("Notes given on add become notes in that order, dated when added")
  func addWithNotes() throws {
    let task = try model.add(title: "Trip", notes: ["book the train", "pack", "water the plants"])
    #expect(task.notes.map(\.text) == ["book the train", "pack", "water the plants"])
    let saved = try stored(task)
    #expect(saved.notes.map(\.text) == ["book the train", "pack", "water the plants"])
    #expect(saved.notes.map(\.createdAt) == Array(repeating: clock.now, count: 3))
    #expect(
      saved.notes == [
        NoteSummary(text: "book the train", createdAt: clock.now), NoteSummary(text: "pack", createdAt: clock.now),
        NoteSummary(text: "water the plants", createdAt: clock.now),
      ])
    #expect(try model.add(title: "No notes").notes.isEmpty)
  }

  @Test("Adding a note appends it after the others; deleting one keeps the rest in order")
  func addAndDeleteNotes() throws {
    let task = try model.add(title: "Report", notes: ["outline"])
    let added = clock.now
    clock.advance(by: 3600)
    let draft = try model.addNote("first draft", to: task)
    #expect(draft.text == "first draft")
    #expect(draft.task === task)
    clock.advance(by: 60)
    try model.addNote("send it", to: task)
    let saved = try stored(task)
    #expect(saved.notes.map(\.text) == ["outline", "first draft", "send it"])
    #expect(saved.notes.map(\.createdAt) == [added, added + 3600, added + 3660])
    try model.deleteNote(draft)
    #expect(try stored(task).notes.map(\.text) == ["outline", "send it"])
    #expect(try container.newContext().fetch(Note.fetchRequest()).map(\.text).sorted() == ["outline", "send it"])
  }

  @Test(
    "A note that is empty or only white space is refused on add, on edit and alone; nothing is saved",
    arguments: ["", "   ", "\n\t"])
  func blankNote(text: String) throws {
    #expect(throws: TaskError.invalid("a note needs some text")) { try model.add(title: "A", notes: ["ok", text]) }
    #expect(try model.allTasks().isEmpty)
    let task = try model.add(title: "Kept", notes: ["first"])
    #expect(throws: TaskError.invalid("a note needs some text")) {
      try model.update(task, .init(title: "Renamed", addedNotes: [text]))
    }
    #expect(task.title == "Kept")
    #expect(throws: TaskError.invalid("a note needs some text")) { try model.addNote(text, to: task) }
    #expect(try stored(task).notes.map(\.text) == ["first"])
    #expect(try stored(task).title == "Kept")
  }

  @Test("Tags and projects are found or created by name")
  func tagsAndProjects() throws {
    let first = try model.add(title: "A", tags: ["home", "errands"], project: "House")
    let second = try model.add(title: "B", tags: ["home"], project: "House")
    #expect(first.project === second.project)
    #expect(Set(first.tags.map(\.name)) == ["home", "errands"])
    let home = try #require(first.tags.first { $0.name == "home" })
    #expect(second.tags.contains(home))
    #expect(home.tasks.count == 2)
  }

  @Test("Done sets the completion date, once; reopening clears it")
  func completionDates() throws {
    let task = try model.add(title: "Call the plumber")
    let doneAt = clock.now
    try model.setCompleted(task, true)
    #expect(task.completedAt == doneAt)
    #expect(try stored(task).completedAt == doneAt)
    #expect(TaskSummary(task).completedAt == doneAt)
    #expect(TaskSummary(task).isCompleted)
    // Marked done again later: it was done at the first time.
    clock.advance(by: 86_400)
    try model.setCompleted(task, true)
    #expect(try stored(task).completedAt == doneAt)
    try model.setCompleted(task, false)
    #expect(task.completedAt == nil)
    #expect(try stored(task).completedAt == nil)
    #expect(!TaskSummary(task).isCompleted)
    try model.toggleCompletion(task)
    #expect(try stored(task).completedAt == clock.now)
  }

  @Test("Toggling completion and the pending/done filters")
  func toggleAndFilter() throws {
    let task = try model.add(title: "Toggle me")
    try model.add(title: "Stay pending")
    try model.toggleCompletion(task)
    #expect(task.isCompleted)
    #expect(task.completedAt == clock.now)
    model.completionFilter = .done
    #expect(model.tasks.map(\.title) == ["Toggle me"])
    model.completionFilter = .pending
    #expect(model.tasks.map(\.title) == ["Stay pending"])
    try model.toggleCompletion(task)
    model.completionFilter = .all
    #expect(model.tasks.allSatisfy { !$0.isCompleted })
  }

  @Test("Editing a task")
  func edit() throws {
    let task = try model.add(title: "Draft", dueDate: day("2026-01-02"), notes: ["started"], tags: ["a"], project: "P")
    let started = clock.now
    clock.advance(by: 120)
    try model.update(
      task,
      .init(
        title: "Final", dueDate: .some(nil), priority: .low, addedNotes: ["done soon", "really"], tags: ["b", "c"],
        project: .some(nil))
    )
    #expect(task.title == "Final")
    #expect(task.dueDate == nil)
    #expect(task.priority == TaskPriority.low.storedValue)
    #expect(task.notes.map(\.text) == ["started", "done soon", "really"])
    #expect(Set(task.tags.map(\.name)) == ["b", "c"])
    #expect(task.project == nil)
    let saved = try stored(task)
    #expect(saved.notes.map(\.text) == ["started", "done soon", "really"])
    #expect(saved.notes.map(\.createdAt) == [started, started + 120, started + 120])
  }

  @Test("Removing the notes deletes them; notes added in the same edit replace them")
  func removeNotes() throws {
    let task = try model.add(title: "Shopping", notes: ["milk", "eggs"])
    try model.update(task, .init(removesNotes: true))
    #expect(task.notes.isEmpty)
    #expect(try stored(task).notes.isEmpty)
    #expect(try container.newContext().fetch(Note.fetchRequest()).isEmpty)
    try model.update(task, .init(addedNotes: ["bread"]))
    try model.update(task, .init(removesNotes: true, addedNotes: ["butter", "jam"]))
    #expect(try stored(task).notes.map(\.text) == ["butter", "jam"])
    #expect(try container.newContext().fetch(Note.fetchRequest()).map(\.text).sorted() == ["butter", "jam"])
  }

  @Test(
    "A title of only spaces, tabs or line breaks is refused on add and on edit",
    arguments: ["   ", "\t", " \n ", "\u{3000}"])
  func blankTitle(title: String) throws {
    // A user types `task add "   "` (or clears the title field of a GUI front end): the model's
    // minimum length of 1 lets it through, and the list shows a task without a title.
    #expect(throws: TaskError.invalid("a task needs a title")) { try model.add(title: title) }
    #expect(try model.allTasks().isEmpty)
    let task = try model.add(title: "Kept")
    #expect(throws: TaskError.invalid("a task needs a title")) { try model.update(task, .init(title: title)) }
    #expect(task.title == "Kept")
    #expect(try model.allTasks().map(\.title) == ["Kept"])
  }

  @Test("Deleting tasks deletes their notes")
  func delete() throws {
    let task = try model.add(title: "Doomed", notes: ["gone too"], tags: ["x"])
    try model.add(title: "Kept", notes: ["stays"])
    try model.delete([task])
    #expect(model.tasks.map(\.title) == ["Kept"])
    #expect(try model.allTasks().map(\.title) == ["Kept"])
    #expect(try container.newContext().fetch(Note.fetchRequest()).map(\.text) == ["stays"])
  }

  @Test("Search ignores case and diacritics, in titles and in the texts of every note")
  func search() throws {
    try model.add(title: "Café au lait")
    try model.add(title: "Tea", notes: ["green", "RÉSUMÉ attached"])
    try model.add(title: "Water")
    model.searchText = "CAFE"
    #expect(model.tasks.map(\.title) == ["Café au lait"])
    model.searchText = "resume"
    #expect(model.tasks.map(\.title) == ["Tea"])
    model.searchText = "É AU"
    #expect(model.tasks.map(\.title) == ["Café au lait"])
    model.searchText = "e"  // Every title or note with an e, accented or not.
    #expect(Set(model.tasks.map(\.title)) == ["Café au lait", "Tea", "Water"])
    model.searchText = "GREEN"
    #expect(model.tasks.map(\.title) == ["Tea"])
    model.searchText = ""
    #expect(Set(model.tasks.map(\.title)) == ["Café au lait", "Tea", "Water"])
  }

  @Test("Order: priority high first, then due date, undated last within a priority")
  func ordering() throws {
    try model.add(title: "low dated", dueDate: day("2026-01-01"), priority: .low)
    try model.add(title: "high undated", priority: .high)
    try model.add(title: "high late", dueDate: day("2026-05-01"), priority: .high)
    try model.add(title: "high early", dueDate: day("2026-02-01"), priority: .high)
    try model.add(title: "medium undated", priority: .medium)
    try model.add(title: "medium dated", dueDate: day("2027-01-01"), priority: .medium)
    #expect(
      model.tasks.map(\.title) == [
        "high early", "high late", "high undated", "medium dated", "medium undated", "low dated",
      ])
  }

  @Test("Tag and project filters")
  func tagAndProjectFilters() throws {
    try model.add(title: "A", tags: ["home"], project: "P1")
    try model.add(title: "B", tags: ["work"], project: "P2")
    try model.add(title: "C", tags: ["home", "work"])
    model.tagFilter = "home"
    #expect(Set(model.tasks.map(\.title)) == ["A", "C"])
    model.tagFilter = nil
    model.projectFilter = "P2"
    #expect(model.tasks.map(\.title) == ["B"])
  }

  @Test("An empty title breaks a rule of the model: nothing is saved")
  func emptyTitle() throws {
    #expect(throws: TaskError.invalid("a task needs a title")) { try model.add(title: "") }
    #expect(try model.allTasks().isEmpty)
  }

  @Test("Identifiers: full, unique prefixes, ambiguous and short prefixes")
  func identifiers() throws {
    var tasks: [Task] = []
    for index in 0..<40 { tasks.append(try model.add(title: "Task \(index)")) }
    let target = tasks[7]
    let full = target.taskID.uuidString.lowercased()
    #expect(try model.task(identifiedBy: full) === target)
    #expect(try model.task(identifiedBy: target.taskID.uuidString) === target)
    // The shortest prefix (from 4 characters) that is unique.
    let ids = tasks.map { $0.taskID.uuidString.lowercased() }
    let length = (4...36).first { length in ids.filter { $0.hasPrefix(full.prefix(length)) }.count == 1 }!
    #expect(try model.task(identifiedBy: String(full.prefix(length)).uppercased()) === target)
    #expect(throws: TaskError.prefixTooShort("abc")) { try model.task(identifiedBy: "abc") }
    #expect(throws: TaskError.notFound("zzzz")) { try model.task(identifiedBy: "zzzz") }
    // Two tasks sharing a first character pair up into an ambiguous prefix of length 1… which is
    // too short; make an ambiguous 4-character prefix by checking any shared 4-prefix.
    let grouped = Dictionary(grouping: ids, by: { String($0.prefix(4)) }).first { $0.value.count > 1 }
    if let (prefix, candidates) = grouped {
      #expect(throws: TaskError.ambiguous(prefix, candidates: candidates.sorted())) {
        try model.task(identifiedBy: prefix)
      }
    }
  }
}

@MainActor
@Suite("Task summary")
struct TaskSummaryTests {
  @Test("The short ID is the identifier's first eight characters, lowercased")
  func shortID() throws {
    let model = TaskListViewModel(container: try TaskStore.inMemory())
    var summary = TaskSummary(try model.add(title: "Any"))
    let identifiers =
      [
        UUID(uuid: (0xAB, 0xCD, 0xEF, 0x01, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)),
        UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
      ]
      + (0..<200).map { _ in UUID() }
    for identifier in identifiers {
      summary.id = identifier
      #expect(summary.shortID == String(identifier.uuidString.lowercased().prefix(8)))
    }
    summary.id = identifiers[0]
    #expect(summary.shortID == "abcdef01")
  }
}
