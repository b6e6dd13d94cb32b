import Foundation
import Observation
import Persistence

/// The task list's model for views: the tasks to show, in order, with a search text and filters,
/// and the operations on them. Views observe it (Observation) and call its methods; it talks to
/// the store only through the generated entity classes and fetch requests.
///
/// Order: priority (high first), then due date (earliest first, undated tasks last within a
/// priority), then title. Search is `CONTAINS[cd]` over the title and the texts of the notes.
///
/// A task is done when it has a `completedAt` date (``Task/isCompleted``); its notes are `Note`
/// objects of the ordered relationship `notes`, oldest first.
@MainActor
@Observable
public final class TaskListViewModel {
  /// The tasks the search text and filters select, in order.
  public private(set) var tasks: [Task] = []
  /// Text to find in titles and in the texts of notes (ignoring case and diacritics); empty shows
  /// everything.
  public var searchText: String = "" {
    didSet { if searchText != oldValue { refreshAfterChange() } }
  }
  /// Pending, done, or all tasks.
  public var completionFilter: CompletionFilter = .all {
    didSet { if completionFilter != oldValue { refreshAfterChange() } }
  }
  /// Only tasks with this tag, when set.
  public var tagFilter: String? {
    didSet { if tagFilter != oldValue { refreshAfterChange() } }
  }
  /// Only tasks of this project, when set.
  public var projectFilter: String? {
    didSet { if projectFilter != oldValue { refreshAfterChange() } }
  }
  /// The last error met while refreshing after a change of the search text or a filter.
  public private(set) var lastError: TaskError?

  @ObservationIgnored private let context: ObjectContext
  @ObservationIgnored private var saveObservation: SaveObservation?
  /// The clock that dates completions and notes (the system's, unless a test gives its own).
  @ObservationIgnored private let now: @Sendable () -> Date

  /// A view model over a container's main context. `now` gives the date a task is marked done
  /// and a note is written at.
  public init(container: PersistentContainer, now: @escaping @Sendable () -> Date = { Date() }) {
    self.context = container.viewContext
    self.now = now
  }

  /// A view model over a given context (on the main actor).
  public init(context: ObjectContext, now: @escaping @Sendable () -> Date = { Date() }) {
    self.context = context
    self.now = now
  }

  // MARK: - Reading

  /// Fetches the tasks again.
  public func refresh() throws(TaskError) {
    var parts: [FetchPredicate] = []
    if !searchText.isEmpty {
      let options: PredicateComparisonOptions = [.caseInsensitive, .diacriticInsensitive]
      let inTitle = Task.Keys.title.contains(searchText, options: options)
      parts.append(inTitle || Task.Keys.notes.any(Note.Keys.text.contains(searchText, options: options)))
    }
    switch completionFilter {
    case .all: break
    case .pending: parts.append(Task.Keys.completedAt.isNil)
    case .done: parts.append(Task.Keys.completedAt.isNotNil)
    }
    if let tagFilter {
      parts.append(
        .comparison(
          PredicateComparison(
            .keyPath(PredicateKeyPath(["tags", "name"])), .equalTo, .string(tagFilter), modifier: .any)))
    }
    if let projectFilter {
      parts.append(
        .comparison(
          PredicateComparison(.keyPath(PredicateKeyPath(["project", "name"])), .equalTo, .string(projectFilter))))
    }
    let predicate: FetchPredicate? = parts.isEmpty ? nil : (parts.count == 1 ? parts[0] : .and(parts))
    var request = Task.fetchRequest(
      predicate: predicate, sortDescriptors: [Task.Keys.priority.ascending, Task.Keys.dueDate.ascending])
    // What a view shows of each task (``TaskSummary``), loaded for all of them in a few queries
    // instead of one query per task and relationship.
    request.relationshipKeyPathsForPrefetching = ["notes", "tags", "project"]
    do {
      tasks = Self.inListOrder(try context.fetch(request))
    } catch {
      throw TaskError.store("cannot read the tasks: \(error)")
    }
  }

  /// The list's order: priority, then due date with undated tasks last, then title.
  static func precedes(_ lhs: Task, _ rhs: Task) -> Bool {
    ListOrderKey(lhs) < ListOrderKey(rhs)
  }

  /// `tasks` in the list's order. Each task's values are read once, into a key, not at every
  /// comparison: reading them through the generated properties (n log n times) was about a
  /// tenth of a `task list` run of 1,000 tasks.
  static func inListOrder(_ tasks: [Task]) -> [Task] {
    let keys = tasks.map(ListOrderKey.init)
    return keys.indices.sorted { keys[$0] < keys[$1] }.map { tasks[$0] }
  }

  private func refreshAfterChange() {
    do {
      try refresh()
      lastError = nil
    } catch {
      lastError = error
    }
  }

  /// Every task, whatever the search and filters, in the list's order.
  public func allTasks() throws(TaskError) -> [Task] {
    do {
      return Self.inListOrder(try context.fetch(Task.fetchRequest()))
    } catch {
      throw TaskError.store("cannot read the tasks: \(error)")
    }
  }

  /// The task whose identifier is `text`, or starts with it (at least four characters, like a
  /// short git hash; case does not matter).
  public func task(identifiedBy text: String) throws(TaskError) -> Task {
    let needle = text.lowercased()
    if let uuid = UUID(uuidString: text) {
      let matches: [Task]
      do {
        matches = try context.fetch(Task.fetchRequest(predicate: Task.Keys.taskID == uuid))
      } catch {
        throw TaskError.store("cannot read the tasks: \(error)")
      }
      guard let task = matches.first else { throw TaskError.notFound(text) }
      return task
    }
    guard needle.count >= 4 else { throw TaskError.prefixTooShort(text) }
    let matches = try allTasks().filter { $0.taskID.uuidString.lowercased().hasPrefix(needle) }
    switch matches.count {
    case 0: throw TaskError.notFound(text)
    case 1: return matches[0]
    default: throw TaskError.ambiguous(text, candidates: matches.map { $0.taskID.uuidString.lowercased() }.sorted())
    }
  }

  // MARK: - Changing

  /// Adds a task and saves it, with a `Note` for each of `notes`, in order. A title that is empty
  /// or only white space is refused (``TaskError/invalid(_:)``), whatever front end passes it, and
  /// so is a note without text; nothing is saved then.
  @discardableResult
  public func add(
    title: String, dueDate: Date? = nil, priority: TaskPriority = .medium, notes: [String] = [],
    tags: [String] = [], project: String? = nil
  ) throws(TaskError) -> Task {
    try Self.checkTitle(title)
    try Self.checkNotes(notes)
    let task = Task(context: context, taskID: UUID(), title: title)
    task.dueDate = dueDate
    task.priority = priority.storedValue
    appendNotes(notes, to: task)
    try assign(tags: tags, project: project, to: task)
    try save()
    return task
  }

  /// What an edit changes; nil leaves a value as it is.
  public struct Edit: Sendable {
    public var title: String?
    /// `.some(nil)` removes the due date.
    public var dueDate: Date??
    public var priority: TaskPriority?
    /// Deletes every note of the task (before `addedNotes` are added) when true.
    public var removesNotes: Bool
    /// Texts of notes to add after the task's notes, in order.
    public var addedNotes: [String]
    /// Replaces the tags when set.
    public var tags: [String]?
    /// `.some(nil)` removes the project.
    public var project: String??

    public init(
      title: String? = nil, dueDate: Date?? = nil, priority: TaskPriority? = nil, removesNotes: Bool = false,
      addedNotes: [String] = [], tags: [String]? = nil, project: String?? = nil
    ) {
      self.title = title
      self.dueDate = dueDate
      self.priority = priority
      self.removesNotes = removesNotes
      self.addedNotes = addedNotes
      self.tags = tags
      self.project = project
    }
  }

  /// Changes a task and saves it. A new title that is empty or only white space, or a note
  /// without text, is refused, and the task is left unchanged.
  public func update(_ task: Task, _ edit: Edit) throws(TaskError) {
    if let title = edit.title { try Self.checkTitle(title) }
    try Self.checkNotes(edit.addedNotes)
    if let title = edit.title { task.title = title }
    if let dueDate = edit.dueDate { task.dueDate = dueDate }
    if let priority = edit.priority { task.priority = priority.storedValue }
    if edit.removesNotes {
      for note in task.notes { context.delete(note) }
    }
    appendNotes(edit.addedNotes, to: task)
    if let tags = edit.tags {
      task.removeFromTags(task.tags)
      try assign(tags: tags, project: nil, to: task)
    }
    if let project = edit.project {
      task.project = try project.map(findOrCreateProject)
    }
    try save()
  }

  /// Marks a task done (dated now, by the view model's clock) or not done (its date removed), and
  /// saves. A task already done keeps the date it was first marked done.
  public func setCompleted(_ task: Task, _ completed: Bool) throws(TaskError) {
    if completed {
      if task.completedAt == nil { task.completedAt = now() }
    } else {
      task.completedAt = nil
    }
    try save()
  }

  /// Flips a task between done and not done, and saves.
  public func toggleCompletion(_ task: Task) throws(TaskError) {
    try setCompleted(task, !task.isCompleted)
  }

  /// Deletes tasks (and, by the model's cascade, their notes) and saves.
  public func delete(_ tasks: [Task]) throws(TaskError) {
    for task in tasks { context.delete(task) }
    try save()
  }

  /// Adds a note with this text, dated now, after the task's other notes, and saves. A text that
  /// is empty or only white space is refused.
  @discardableResult
  public func addNote(_ text: String, to task: Task) throws(TaskError) -> Note {
    try Self.checkNotes([text])
    let note = appendNotes([text], to: task)[0]
    try save()
    return note
  }

  /// Deletes one note and saves.
  public func deleteNote(_ note: Note) throws(TaskError) {
    context.delete(note)
    try save()
  }

  /// Appends a note per text, in order, all dated now (their order is the relationship's).
  @discardableResult
  private func appendNotes(_ texts: [String], to task: Task) -> [Note] {
    guard !texts.isEmpty else { return [] }
    let date = now()
    let notes = texts.map { Note(context: context, createdAt: date, text: $0) }
    task.addToNotes(notes)
    return notes
  }

  private func assign(tags: [String], project: String?, to task: Task) throws(TaskError) {
    var seen = Set<String>()
    for name in tags where seen.insert(name).inserted {
      task.addToTags(try findOrCreateTag(name))
    }
    if let project { task.project = try findOrCreateProject(project) }
  }

  private func findOrCreateTag(_ name: String) throws(TaskError) -> Tag {
    do {
      if let tag = try context.fetch(Tag.fetchRequest(predicate: Tag.Keys.name == name, fetchLimit: 1)).first {
        return tag
      }
    } catch {
      throw TaskError.store("cannot read the tags: \(error)")
    }
    return Tag(context: context, name: name)
  }

  private func findOrCreateProject(_ name: String) throws(TaskError) -> Project {
    do {
      if let project = try context.fetch(Project.fetchRequest(predicate: Project.Keys.name == name, fetchLimit: 1))
        .first
      {
        return project
      }
    } catch {
      throw TaskError.store("cannot read the projects: \(error)")
    }
    return Project(context: context, name: name)
  }

  /// Saves; on failure nothing is kept (the context rolls back) and the model's rule is reported.
  private func save() throws(TaskError) {
    do {
      try context.save()
    } catch {
      context.rollback()
      if case .validation(let failures) = error {
        throw TaskError.invalid(failures.map(Self.describe).joined(separator: "; "))
      }
      throw TaskError.store("cannot save: \(error)")
    }
    refreshAfterChange()
  }

  /// Refuses a title that is empty once white space and line breaks are trimmed: the model only
  /// asks for a length of at least 1, which `"   "` has, but such a task shows as a blank line.
  private static func checkTitle(_ title: String) throws(TaskError) {
    if title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
      throw TaskError.invalid(Self.emptyTitleMessage)
    }
  }

  private static let emptyTitleMessage = "a task needs a title"

  /// Refuses a note whose text is empty once white space and line breaks are trimmed: it would
  /// show as an empty line under the task.
  private static func checkNotes(_ texts: [String]) throws(TaskError) {
    if texts.contains(where: { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }) {
      throw TaskError.invalid(Self.emptyNoteMessage)
    }
  }

  private static let emptyNoteMessage = "a note needs some text"

  private static func describe(_ failure: ValidationFailure) -> String {
    switch (failure.entity, failure.property, failure.rule) {
    case ("Task", "title", .minimumLength), ("Task", "title", .required): emptyTitleMessage
    case ("Task", "priority", _): "the priority must be high, medium or low"
    case ("Note", "text", .required): emptyNoteMessage
    default: "\(failure.entity.lowercased()) \(failure.property): \(failure.message)"
    }
  }
}
