import DataModel
import Persistence
import Testing

/// Join-table names and columns of a messenger's store, as Core Data wrote them.
///
/// The case: a messenger app's model, whose store Core Data wrote, was read here with names
/// modelc had derived differently, and `store export` failed (`no such column: j.Z_23USERS`).
/// The model below has the same shape — the same entity numbers, and the same property names
/// on the entities whose property order decides the names — and the test compares the layout
/// with what the real store holds:
///
/// - `User` (23) has many-to-many `reactions` ⇄ `Reaction.users` (19) and `systemMessages` ⇄
///   `SystemMessage.users` (15, a sub-entity of `Message`). Both join columns holding users are
///   named after a relationship called `users`; Core Data numbers the second:
///   `Z_19USERS (Z_19REACTIONS, Z_23USERS)` and `Z_15USERS (Z_15SYSTEMMESSAGES, Z_23USERS1)`,
///   with the index `Z_15USERS_Z_23USERS1_INDEX`.
/// - `UserClient` (24) has two self-referential pairs declared alike, yet Core Data named one
///   table after the second name (`Z_24IGNOREDCLIENTS (Z_24IGNOREDBYCLIENTS,
///   Z_24IGNOREDCLIENTS)`) and the other after the first (`Z_24TRUSTEDBYCLIENTS`).
@Suite("Join-table naming")
struct JoinTableNamingTests {
  static func toMany(_ name: String, _ destination: String, inverse: String) -> String {
    """
        <relationship name="\(name)" optional="YES" toMany="YES" deletionRule="Nullify" \
    destinationEntity="\(destination)" inverseName="\(inverse)" inverseEntity="\(destination)"/>
    """
  }

  static func toOne(_ name: String, _ destination: String, inverse: String) -> String {
    """
        <relationship name="\(name)" optional="YES" maxCount="1" deletionRule="Nullify" \
    destinationEntity="\(destination)" inverseName="\(inverse)" inverseEntity="\(destination)"/>
    """
  }

  static func attributes(_ names: [String]) -> String {
    names.map { #"    <attribute name="\#($0)" optional="YES" attributeType="String"/>"# }.joined(separator: "\n")
  }

  /// The messenger's shape: nine entities before `Message`, its six sub-entities (so that
  /// `SystemMessage` is 15), then `Reaction` 19, `User` 23 and `UserClient` 24.
  static let messenger: String = {
    var entities: [String] = []
    for name in [
      "Action", "AddressEntry", "ButtonState", "Connection", "Conversation", "Feature", "GenericData", "Label",
    ]
      + ["Member"]
    {
      entities.append(
        #"<entity name="\#(name)"><attribute name="name" optional="YES" attributeType="String"/></entity>"#)
    }
    entities.append(
      """
      <entity name="Message" isAbstract="YES">
      \(attributes(["serverTimestamp", "text"]))
      </entity>
      """)
    for name in ["AssetMessage", "ClientMessage", "ImageMessage", "KnockMessage"] {
      entities.append(#"<entity name="\#(name)" parentEntity="Message"/>"#)
    }
    entities.append(
      """
      <entity name="SystemMessage" parentEntity="Message">
      \(attributes(["systemMessageType"]))
      \(toMany("users", "User", inverse: "systemMessages"))
      </entity>
      <entity name="TextMessage" parentEntity="Message"/>
      <entity name="MessageReceipt"><attribute name="name" optional="YES" attributeType="String"/></entity>
      <entity name="ParticipantRole"><attribute name="name" optional="YES" attributeType="String"/></entity>
      <entity name="Reaction">
      \(attributes(["unicodeValue"]))
      \(toMany("users", "User", inverse: "reactions"))
      </entity>
      <entity name="Role"><attribute name="name" optional="YES" attributeType="String"/></entity>
      <entity name="Session"><attribute name="name" optional="YES" attributeType="String"/></entity>
      <entity name="Team"><attribute name="name" optional="YES" attributeType="String"/></entity>
      """)
    // User's and UserClient's stored properties by name: their hash order decides the names.
    let userAttributes = [
      "accentColorValue", "analyticsIdentifier", "availability", "completeProfileAssetIdentifier", "domain",
      "emailAddress", "expiresAt", "handle", "isAccountDeleted", "legalHoldRequest", "managedBy", "modifiedKeys",
      "name", "needsPropertiesUpdate", "needsRichProfileUpdate", "needsToAcknowledgeLegalHoldStatus",
      "needsToBeUpdatedFromBackend", "needsToRefetchLabels", "normalizedEmailAddress", "normalizedName", "phoneNumber",
      "previewProfileAssetIdentifier", "providerIdentifier", "readReceiptsEnabled",
      "readReceiptsEnabledChangedRemotely",
      "remoteIdentifier_data", "richProfile", "serviceIdentifier", "teamIdentifier_data", "usesCompanyLogin",
      "addressBookEntry", "connection", "conversationsCreated", "createdTeamMembers", "createdTeams",
      "lastServerSyncedActiveConversations", "membership", "participantRoles", "showingUserAdded",
      "showingUserRemoved",
    ]
    entities.append(
      """
      <entity name="User">
      \(attributes(userAttributes))
      \(toMany("clients", "UserClient", inverse: "user"))
      \(toMany("reactions", "Reaction", inverse: "users"))
      \(toMany("systemMessages", "SystemMessage", inverse: "users"))
      </entity>
      """)
    let clientAttributes = [
      "activationAddress", "activationDate", "activationLocationLatitude", "activationLocationLongitude",
      "apsDecryptionKey", "apsVerificationKey", "deviceClass", "discoveryDate", "fingerprint", "label",
      "markedToDelete",
      "model", "modifiedKeys", "needsSessionMigration", "needsToBeUpdatedFromBackend",
      "needsToNotifyOtherUserAboutSessionReset", "needsToNotifyUser", "needsToUpdateCapabilities",
      "needsToUploadSignalingKeys", "numberOfKeysRemaining", "preKeysRangeMax", "pushToken", "remoteIdentifier", "type",
      "addedOrRemovedInSystemMessages", "discoveredByMessage", "missedByClient", "missingClients",
    ]
    entities.append(
      """
      <entity name="UserClient">
      \(attributes(clientAttributes))
      \(toMany("ignoredByClients", "UserClient", inverse: "ignoredClients"))
      \(toMany("ignoredClients", "UserClient", inverse: "ignoredByClients"))
      \(toMany("trustedByClients", "UserClient", inverse: "trustedClients"))
      \(toMany("trustedClients", "UserClient", inverse: "trustedByClients"))
      \(toOne("user", "User", inverse: "clients"))
      </entity>
      """)
    return entities.joined(separator: "\n")
  }()

  @Test("The entity numbers are the real store's")
  func numbers() throws {
    let schema = try LayoutModel.schema(Self.messenger)
    #expect(schema.mapping(forEntityNamed: "SystemMessage")?.entityNumber == 15)
    #expect(schema.mapping(forEntityNamed: "Reaction")?.entityNumber == 19)
    #expect(schema.mapping(forEntityNamed: "User")?.entityNumber == 23)
    #expect(schema.mapping(forEntityNamed: "UserClient")?.entityNumber == 24)
  }

  @Test("Join columns named alike in two join tables: the second gets a number, in its index too")
  func collidingJoinColumns() throws {
    let schema = try LayoutModel.schema(Self.messenger)
    #expect(
      schema.table(named: "Z_19USERS")?.createStatement()
        == "CREATE TABLE Z_19USERS ( Z_19REACTIONS INTEGER, Z_23USERS INTEGER, PRIMARY KEY (Z_19REACTIONS, Z_23USERS) )"
    )
    #expect(
      schema.table(named: "Z_15USERS")?.createStatement()
        == "CREATE TABLE Z_15USERS ( Z_15SYSTEMMESSAGES INTEGER, Z_23USERS1 INTEGER, "
        + "PRIMARY KEY (Z_15SYSTEMMESSAGES, Z_23USERS1) )")
    #expect(
      schema.indexes.first { $0.table == "Z_15USERS" }?.createStatement()
        == "CREATE INDEX Z_15USERS_Z_23USERS1_INDEX ON Z_15USERS (Z_23USERS1, Z_15SYSTEMMESSAGES)")
    let user = try #require(schema.mapping(forEntityNamed: "User"))
    #expect(
      user.toMany(named: "systemMessages")?.storage
        == .joinTable(
          .init(
            table: "Z_15USERS", sourceColumn: "Z_23USERS1", destinationColumn: "Z_15SYSTEMMESSAGES", orderColumn: nil))
    )
  }

  @Test("Two self-referential pairs declared alike: Core Data's visiting order picks each table's name")
  func selfReferentialPairs() throws {
    let schema = try LayoutModel.schema(Self.messenger)
    let names = schema.joinTables.map(\.name).filter { $0.hasPrefix("Z_24") }
    #expect(names == ["Z_24IGNOREDCLIENTS", "Z_24TRUSTEDBYCLIENTS"])
    #expect(
      schema.table(named: "Z_24IGNOREDCLIENTS")?.createStatement()
        == "CREATE TABLE Z_24IGNOREDCLIENTS ( Z_24IGNOREDBYCLIENTS INTEGER, Z_24IGNOREDCLIENTS INTEGER, "
        + "PRIMARY KEY (Z_24IGNOREDBYCLIENTS, Z_24IGNOREDCLIENTS) )")
    #expect(
      schema.table(named: "Z_24TRUSTEDBYCLIENTS")?.createStatement()
        == "CREATE TABLE Z_24TRUSTEDBYCLIENTS ( Z_24TRUSTEDCLIENTS INTEGER, Z_24TRUSTEDBYCLIENTS INTEGER, "
        + "PRIMARY KEY (Z_24TRUSTEDCLIENTS, Z_24TRUSTEDBYCLIENTS) )")
  }
}
