import Foundation
import Migration
import Persistence
import TestSupport
import Testing

/// The real mapping models of the corpus run against seeded stores: those that need no policy
/// carry every value and link they say; those that name policies are refused, store untouched.
@Suite("Heavyweight migrations of the corpus mappings")
struct CorpusHeavyweightTests {
  /// Whether a mapping needs code the mapping file does not hold.
  static func needsPolicy(_ mapping: MappingModel) -> Bool {
    mapping.entityMappings.contains { entityMapping in
      !(entityMapping.policyClassName ?? "").isEmpty
        || (entityMapping.attributeMappings + entityMapping.relationshipMappings).contains {
          $0.value?.description.contains("$entityPolicy") ?? false
        }
    }
  }

  /// A store at `version`, seeded with valid objects of every entity.
  static func seededStore(_ version: ModelVersion, label: String) throws -> URL {
    let url = TestPaths.temporaryDirectory(label).appendingPathComponent("store.sqlite")
    let container = try PersistentContainer(model: version, options: .file(url))
    _ = try StoreSeeder(rowsPerEntity: 6, seed: 11).seed(container.newContext())
    return url
  }

  @Test("Corpus mappings without policies carry every $source value, constant and link; with policies they are refused")
  func corpusMappingsRun() throws {
    let mappings = CorpusMappingTests.corpusMappings()
    guard !mappings.isEmpty else {
      print("skipped: \(TestPaths.corpusAbsentReason)")
      return
    }
    var ran = 0
    var refused = 0
    var comparedValues = 0
    var comparedLinks = 0
    for (file, bundles) in mappings {
      guard let (loaded, bundle) = try CorpusMappingTests.loadMatched(file, bundles: bundles),
        let sourceName = loaded.source.version, let destinationName = loaded.destination.version,
        let source = bundle.version(named: sourceName), let destination = bundle.version(named: destinationName)
      else {
        Issue.record("\(file.lastPathComponent) does not match its model")
        continue
      }
      let url = try Self.seededStore(source, label: "corpus-heavyweight")
      let migration = StoreMigration(storeURL: url, bundle: bundle, mappingModels: [loaded.mapping])
      if Self.needsPolicy(loaded.mapping) {
        let before = BookshelfFixture.fingerprint(url)
        #expect(throws: MigrationEngineError.self, "\(file.lastPathComponent)") {
          try migration.run(to: destination)
        }
        #expect(BookshelfFixture.fingerprint(url) == before, "\(file.lastPathComponent) changed the store")
        try Self.expectCommandLineRefuses(file, model: bundle, store: url, to: destination.name)
        refused += 1
        continue
      }
      let copy = url.deletingLastPathComponent().appendingPathComponent("original.sqlite")
      try FileManager.default.copyItem(at: url, to: copy)
      do {
        try migration.run(to: destination, options: .init(keepsBackup: false))
      } catch {
        Issue.record("\(file.lastPathComponent): \(error)")
        continue
      }
      ran += 1
      let sourceContext = try PersistentContainer(
        model: source, options: StoreOptions(location: .file(copy), isReadOnly: true, createIfMissing: false)
      ).newContext()
      let destinationContext = try PersistentContainer(
        model: destination, options: StoreOptions(location: .file(url), isReadOnly: true, createIfMissing: false)
      ).newContext()
      let counts = try Self.compare(
        loaded.mapping, source: sourceContext, destination: destinationContext, file: file.lastPathComponent)
      comparedValues += counts.values
      comparedLinks += counts.links
    }
    print(
      "[corpus heavyweight] ran \(ran), refused \(refused) (policies), compared \(comparedValues) values and \(comparedLinks) links"
    )
    #expect(ran + refused == mappings.count)
    #expect(ran >= 9 && refused >= 8)
    #expect(comparedValues > 1_000 && comparedLinks > 100)
  }

  /// `modelc migrate --mappings` with only this mapping refuses before anything changes, exit
  /// 1, naming the policy classes (when the executable is built).
  static func expectCommandLineRefuses(_ mapping: URL, model: ModelBundle, store: URL, to version: String) throws {
    guard let modelc = TestPaths.executable(named: "modelc"), let modelPath = model.path else { return }
    let folder = store.deletingLastPathComponent().appendingPathComponent("mappings")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: mapping, to: folder.appendingPathComponent(mapping.lastPathComponent))
    let before = BookshelfFixture.fingerprint(store)
    let run = try ProcessRun.run(
      modelc, ["migrate", store.path, "--model", modelPath, "--to", version, "--mappings", folder.path])
    #expect(run.status == 1, "\(mapping.lastPathComponent): \(run.output)\(run.error)")
    #expect(
      run.error.contains("needs migration policy classes") && run.error.contains("names the policy class"),
      "\(mapping.lastPathComponent): \(run.error)")
    #expect(
      BookshelfFixture.fingerprint(store) == before, "\(mapping.lastPathComponent): the command changed the store")
  }

  /// Checks each entity mapping's objects (matched by key: the engine keeps keys it can) and
  /// returns how many values and links were compared.
  static func compare(
    _ mapping: MappingModel, source: ObjectContext, destination: ObjectContext, file: String
  ) throws -> (values: Int, links: Int) {
    var values = 0
    var links = 0
    for entityMapping in mapping.entityMappings where entityMapping.kind != .add && entityMapping.kind != .remove {
      guard let sourceEntity = entityMapping.sourceEntity, let destinationEntity = entityMapping.destinationEntity,
        let destinationID = destination.model.entityID(named: destinationEntity)
      else { continue }
      var request = FetchRequest<ManagedObject>(entityName: sourceEntity)
      request.includesSubentities = false
      let sourceObjects = try source.fetch(request)
      var destinationRequest = FetchRequest<ManagedObject>(entityName: destinationEntity)
      destinationRequest.includesSubentities = false
      let made = try destination.fetch(destinationRequest)
      #expect(
        made.count == sourceObjects.count, "\(file): \(entityMapping.name) made \(made.count) of \(sourceObjects.count)"
      )
      let byKey = Dictionary(made.map { ($0.objectID.primaryKey ?? 0, $0) }, uniquingKeysWith: { first, _ in first })
      for object in sourceObjects {
        guard let key = object.objectID.primaryKey, let target = byKey[key] else {
          Issue.record(
            "\(file): \(entityMapping.name): \(sourceEntity) \(object.objectID) has no destination object with its key")
          continue
        }
        for property in entityMapping.attributeMappings {
          guard let expression = property.value,
            let attribute = destination.model.attribute(named: property.destinationProperty, in: destinationID)
          else { continue }
          let actual = try target.value(forKey: property.destinationProperty)
          if let keyPath = expression.sourceKeyPath, !keyPath.contains(".") {
            let expected = try object.value(forKey: keyPath)
            let converted = expected.flatMap { try? $0.converted(to: attribute.attributeType) } ?? expected
            #expect(actual == converted, "\(file): \(entityMapping.name).\(property.destinationProperty) of \(key)")
            values += 1
          } else if case .constant(let constant) = expression {
            #expect(
              actual == (try? constant.attributeValue(for: attribute.attributeType)) ?? nil,
              "\(file): \(entityMapping.name).\(property.destinationProperty) = \(expression)")
            values += 1
          }
        }
        for property in entityMapping.relationshipMappings {
          guard let call = property.value?.destinationInstances, let sourceRelationship = call.sourceRelationship,
            let relationship = destination.model.relationship(named: property.destinationProperty, in: destinationID)?
              .relationship
          else { continue }
          let sourceKeys = Set(
            try Self.related(object, sourceRelationship).compactMap(\.objectID.primaryKey))
          let destinationKeys = Set(
            try Self.related(target, relationship.name).compactMap(\.objectID.primaryKey))
          #expect(
            destinationKeys == sourceKeys,
            "\(file): \(entityMapping.name).\(property.destinationProperty) of \(key): \(destinationKeys) ≠ \(sourceKeys)"
          )
          links += 1
        }
      }
    }
    return (values, links)
  }

  @Test("Olvid's ObvEngine v1 → v2 mapping runs with its two policies ported to Swift")
  func portedPolicy() throws {
    let mappings = CorpusMappingTests.corpusMappings().filter {
      $0.mapping.lastPathComponent == "ObvEngineMappingModel_v1_to_v2.xcmappingmodel"
    }
    guard let (file, bundles) = mappings.first else {
      print("skipped: \(TestPaths.corpusAbsentReason)")
      return
    }
    let (loaded, bundle) = try #require(try CorpusMappingTests.loadMatched(file, bundles: bundles))
    let source = try #require(loaded.source.version.flatMap { bundle.version(named: $0) })
    let destination = try #require(loaded.destination.version.flatMap { bundle.version(named: $0) })
    let url = try Self.seededStore(source, label: "corpus-policy")
    var policies = MigrationPolicies()
    policies.register(InboxMessageToInboxMessageMigrationPolicyV1ToV2.self)
    policies.register(ReceivedMessageToReceivedMessageMigrationPolicyV1ToV2.self)
    let migration = StoreMigration(
      storeURL: url, bundle: bundle, mappingModels: [loaded.mapping], policies: policies)
    let routes = try migration.entityMappingRoutes(of: try migration.plan(to: destination).steps[0])
    #expect(
      routes.filter { $0.route == .objects }.map(\.name).sorted() == [
        "InboxMessageToInboxMessage", "ReceivedMessageToReceivedMessage",
      ])
    try migration.run(to: destination, options: .init(keepsBackup: false))
    let context = try PersistentContainer(
      model: destination, options: StoreOptions(location: .file(url), isReadOnly: true, createIfMissing: false)
    ).newContext()
    let epoch = AttributeValue.date(Date(timeIntervalSince1970: 0))
    let inbox = try context.fetch(FetchRequest<ManagedObject>(entityName: "InboxMessage"))
    let received = try context.fetch(FetchRequest<ManagedObject>(entityName: "ReceivedMessage"))
    #expect(!inbox.isEmpty && !received.isEmpty)
    #expect(try inbox.allSatisfy { try $0.value(forKey: "serverTimestamp") == epoch })
    #expect(try received.allSatisfy { try $0.value(forKey: "timestamp") == epoch })
  }

  static func related(_ object: ManagedObject, _ name: String) throws -> [ManagedObject] {
    guard let model = object.context?.model, let entity = model.entityID(named: object.entityName),
      let relationship = model.relationship(named: name, in: entity)?.relationship
    else { return [] }
    if relationship.isToMany { return try object.objects(forKey: name) }
    return try object.object(forKey: name).map { [$0] } ?? []
  }
}

/// Olvid's `InboxMessageToInboxMessageMigrationPolicyV1ToV2`, ported: its `@objc func epoch()`
/// (called from the mapping as `FUNCTION($entityPolicy, "epoch")`) becomes a case of
/// `evaluateFunction(named:arguments:manager:)`.
final class InboxMessageToInboxMessageMigrationPolicyV1ToV2: EntityMigrationPolicy {
  override func evaluateFunction(named name: String, arguments: [MigrationValue], manager: MigrationManager) throws
    -> MigrationValue
  {
    guard name == "epoch" else {
      return try super.evaluateFunction(named: name, arguments: arguments, manager: manager)
    }
    return .attribute(.date(Date(timeIntervalSince1970: 0)))
  }
}

/// Olvid's `ReceivedMessageToReceivedMessageMigrationPolicyV1ToV2`, ported the same way.
final class ReceivedMessageToReceivedMessageMigrationPolicyV1ToV2: EntityMigrationPolicy {
  override func evaluateFunction(named name: String, arguments: [MigrationValue], manager: MigrationManager) throws
    -> MigrationValue
  {
    guard name == "epoch" else {
      return try super.evaluateFunction(named: name, arguments: arguments, manager: manager)
    }
    return .attribute(.date(Date(timeIntervalSince1970: 0)))
  }
}
