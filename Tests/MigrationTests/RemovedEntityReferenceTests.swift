import Foundation
import Migration
import Persistence
import TestSupport
import Testing

/// A step that removes a sub-entity drops its objects; what pointed at them is cleared, as Core
/// Data's migration leaves such relationships unset, and the store then verifies. The case comes
/// from a real model (a chat app's discussions losing two "locked" sub-entities), rebuilt here.
@Suite("References to the objects of a removed entity")
struct RemovedEntityReferenceTests {
  static func version(_ name: String, locked: Bool) -> ModelVersion {
    let (version, diagnostics) = ModelReader.readVersion(
      xml: """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Discussion" representedClassName="Discussion" syncable="YES">
                <attribute name="title" attributeType="String"/>
                <relationship name="messages" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Message" inverseName="discussion" inverseEntity="Message"/>
                <relationship name="labels" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Label" inverseName="discussions" inverseEntity="Label"/>
            </entity>
            \(locked ? #"<entity name="LockedDiscussion" representedClassName="LockedDiscussion" parentEntity="Discussion" syncable="YES"/>"# : "")
            <entity name="Message" representedClassName="Message" syncable="YES">
                <attribute name="body" attributeType="String"/>
                <relationship name="discussion" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Discussion" inverseName="messages" inverseEntity="Discussion"/>
            </entity>
            <entity name="Label" representedClassName="Label" syncable="YES">
                <attribute name="name" attributeType="String"/>
                <relationship name="discussions" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Discussion" inverseName="labels" inverseEntity="Discussion"/>
            </entity>
        </model>
        """, name: name)
    precondition(!diagnostics.containsErrors, "\(diagnostics)")
    return version!
  }

  static let bundle = ModelBundle(name: "Chat", versions: [version("V1", locked: true), version("V2", locked: false)])

  @Test("Messages of a removed locked discussion lose their discussion, labels lose it, everything else stays")
  func referencesCleared() throws {
    let url = TestPaths.temporaryDirectory("removed-entity").appendingPathComponent("Chat.sqlite")
    do {
      let container = try PersistentContainer(bundle: Self.bundle, versionName: "V1", options: .file(url))
      let context = container.newContext()
      let label = try context.insert(entityNamed: "Label")
      try label.setValue(.string("work"), forKey: "name")
      for (title, entity) in [("open", "Discussion"), ("locked", "LockedDiscussion")] {
        let discussion = try context.insert(entityNamed: entity)
        try discussion.setValue(.string(title), forKey: "title")
        try discussion.addObject(label, forKey: "labels")
        for index in 0..<3 {
          let message = try context.insert(entityNamed: "Message")
          try message.setValue(.string("\(title) \(index)"), forKey: "body")
          try message.setObject(discussion, forKey: "discussion")
        }
      }
      try context.save()
    }
    try StoreMigration(storeURL: url, bundle: Self.bundle).run(options: .init(keepsBackup: false))
    let container = try PersistentContainer(
      bundle: Self.bundle, versionName: "V2",
      options: StoreOptions(location: .file(url), isReadOnly: true, createIfMissing: false))
    let context = container.newContext()
    let messages = try context.fetch(FetchRequest<ManagedObject>(entityName: "Message"))
    var discussionOf: [String: String?] = [:]
    for message in messages {
      guard case .string(let body)? = try message.value(forKey: "body") else { continue }
      let discussion = try message.object(forKey: "discussion")
      discussionOf[body] = try discussion.flatMap { object -> String? in
        if case .string(let title)? = try object.value(forKey: "title") { return title }
        return nil
      }
    }
    #expect(messages.count == 6)
    for index in 0..<3 {
      #expect(discussionOf["open \(index)"] == .some("open"))
      #expect(discussionOf["locked \(index)"] == .some(nil))
    }
    let label = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Label")).first)
    #expect(try label.objects(forKey: "discussions").count == 1)
  }
}
