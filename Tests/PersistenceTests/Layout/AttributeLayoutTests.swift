import DataModel
import Foundation
import Persistence
import Testing

@Suite("Layout of attributes")
struct AttributeLayoutTests {
  static let everything = """
    <entity name="Everything">
        <attribute name="aBinary" optional="YES" attributeType="Binary"/>
        <attribute name="aBool" attributeType="Boolean" usesScalarValueType="YES"/>
        <attribute name="aDate" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
        <attribute name="aDecimal" optional="YES" attributeType="Decimal" defaultValueString="0.0"/>
        <attribute name="aDouble" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
        <attribute name="aExternal" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
        <attribute name="aFloat" attributeType="Float" defaultValueString="0.0" usesScalarValueType="YES"/>
        <attribute name="aInt16" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/>
        <attribute name="aInt32" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
        <attribute name="aInt64" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
        <attribute name="aObjectID" optional="YES" attributeType="ObjectID"/>
        <attribute name="aString" optional="YES" attributeType="String"/>
        <attribute name="aTransformable" optional="YES" attributeType="Transformable" \
    valueTransformerName="NSSecureUnarchiveFromData"/>
        <attribute name="aTransient" optional="YES" transient="YES" attributeType="String"/>
        <attribute name="aURI" optional="YES" attributeType="URI"/>
        <attribute name="aUUID" optional="YES" attributeType="UUID" usesScalarValueType="NO"/>
        <attribute name="aUndefined" optional="YES" transient="YES" attributeType="Undefined"/>
        <attribute name="address" optional="YES" attributeType="Composite" composite="Address"/>
        <attribute name="derivedTitle" optional="YES" attributeType="String" derived="YES" \
    derivationExpression="uppercase:(aString)"/>
    </entity>
    <composite name="Address">
        <attribute name="location" optional="YES" attributeType="Composite" composite="Geo"/>
        <attribute name="street" optional="YES" attributeType="String"/>
        <attribute name="zip" optional="YES" attributeType="Integer 32" usesScalarValueType="NO"/>
    </composite>
    <composite name="Geo">
        <attribute name="lat" optional="YES" attributeType="Double" usesScalarValueType="NO"/>
        <attribute name="lon" optional="YES" attributeType="Double" usesScalarValueType="NO"/>
    </composite>
    """

  @Test("Each attribute type's column type, in Core Data's group order; transient and ObjectID have none")
  func columnTypes() throws {
    let schema = try LayoutModel.schema(Self.everything)
    #expect(
      schema.createTable("ZEVERYTHING")
        == "CREATE TABLE ZEVERYTHING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZABOOL INTEGER, "
        + "ZAINT16 INTEGER, ZAINT32 INTEGER, ZAINT64 INTEGER, ZZIP INTEGER, ZADATE TIMESTAMP, "
        + "ZADOUBLE FLOAT, ZAFLOAT FLOAT, ZLAT FLOAT, ZLON FLOAT, "
        + "ZADECIMAL DECIMAL, ZASTRING VARCHAR, ZSTREET VARCHAR, ZDERIVEDTITLE VARCHAR, ZABINARY BLOB, "
        + "ZAEXTERNAL BLOB, ZATRANSFORMABLE BLOB, ZAURI VARCHAR, ZAUUID BLOB )")
    let entity = try #require(schema.mapping(forEntityNamed: "Everything"))
    #expect(entity.column(forAttribute: "aTransient") == nil)
    #expect(entity.column(forAttribute: "aUndefined") == nil)
    #expect(entity.column(forAttribute: "aObjectID") == nil)
    #expect(entity.column(forAttribute: "address") == nil)
    #expect(entity.column(forAttribute: "address.location.lat")?.column == "ZLAT")
    #expect(entity.column(forAttribute: "address.street")?.attributeType == .string)
  }

  @Test("Composite leaves are named after the leaf alone and numbered on clashes, in key-path order")
  func compositeLeafNames() throws {
    let schema = try LayoutModel.schema(
      """
      <entity name="Shop">
          <attribute name="home" optional="YES" attributeType="Composite" composite="Place"/>
          <attribute name="name" optional="YES" attributeType="String"/>
          <attribute name="work" optional="YES" attributeType="Composite" composite="Place"/>
      </entity>
      <composite name="Place">
          <attribute name="name" optional="YES" attributeType="String"/>
          <attribute name="rank" optional="YES" attributeType="Integer 16"/>
      </composite>
      """)
    #expect(
      schema.createTable("ZSHOP")
        == "CREATE TABLE ZSHOP ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZRANK INTEGER, "
        + "ZRANK1 INTEGER, ZNAME VARCHAR, ZNAME1 VARCHAR, ZNAME2 VARCHAR )")
    let shop = try #require(schema.mapping(forEntityNamed: "Shop"))
    #expect(shop.column(forAttribute: "home.name")?.column == "ZNAME")
    #expect(shop.column(forAttribute: "name")?.column == "ZNAME1")
    #expect(shop.column(forAttribute: "work.name")?.column == "ZNAME2")
    #expect(shop.column(forAttribute: "work.rank")?.column == "ZRANK1")
  }

  @Test("Column types and value encodings per attribute type")
  func encodings() throws {
    let entity = try #require(try LayoutModel.schema(Self.everything).mapping(forEntityNamed: "Everything"))
    let expected: [String: (ColumnType, ValueEncoding)] = [
      "aBinary": (.blob, .binary), "aBool": (.integer, .boolean), "aDate": (.timestamp, .timestamp),
      "aDecimal": (.decimal, .decimal), "aDouble": (.float, .real), "aExternal": (.blob, .externalBinary),
      "aFloat": (.float, .real), "aInt16": (.integer, .integer), "aInt32": (.integer, .integer),
      "aInt64": (.integer, .integer), "aString": (.varchar, .text), "aTransformable": (.blob, .transformable),
      "aURI": (.varchar, .uri), "aUUID": (.blob, .uuid), "address.zip": (.integer, .integer),
    ]
    for (name, (type, encoding)) in expected {
      let column = try #require(entity.column(forAttribute: name), "\(name)")
      #expect(column.columnType == type, "\(name)")
      #expect(column.encoding == encoding, "\(name)")
      // A composite leaf's column is named after the leaf alone.
      #expect(column.column == "Z" + name.split(separator: ".").last!.uppercased())
    }
    #expect(ColumnType(attributeType: .composite) == nil)
    #expect(ColumnType(attributeType: .objectID) == nil)
  }

  @Test("Names are uppercased with full Unicode case mapping and quoted only when they could not be read bare")
  func unicodeNames() throws {
    let schema = try LayoutModel.schema(
      """
      <entity name="Straße">
          <attribute name="größe" optional="YES" attributeType="Integer 32" usesScalarValueType="NO"/>
          <fetchIndex name="by größe">
              <fetchIndexElement property="größe" type="Binary" order="descending"/>
          </fetchIndex>
      </entity>
      """)
    #expect(
      schema.createTable("ZSTRASSE")
        == "CREATE TABLE ZSTRASSE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZGRÖSSE INTEGER )")
    #expect(
      schema.createIndexes(on: "ZSTRASSE") == [
        #"CREATE INDEX "Z_Straße_by größe" ON ZSTRASSE (ZGRÖSSE COLLATE BINARY DESC)"#
      ])
  }
}
