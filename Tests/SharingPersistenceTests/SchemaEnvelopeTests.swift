import Foundation
import Testing

@testable import SharingPersistence

/// The stored form of versions above 1, and what is not mistaken for it.
@Suite struct SchemaEnvelopeTests {
  @Test func compactJSONIsHeldAsItIs() throws {
    let wrapped = SchemaEnvelope.wrap(bytes(#"{"a":[1,2]}"#), version: 2, isJSON: true)
    #expect(text(wrapped) == #"{"$version":2,"value":{"a":[1,2]}}"#)
    let (version, payload) = try #require(SchemaEnvelope.unwrap(wrapped))
    #expect(version == 2)
    #expect(text(payload) == #"{"a":[1,2]}"#)
  }

  @Test func prettyJSONIsIndentedOneMoreLevel() throws {
    let pretty = "[\n  {\n    \"a\" : [\n\n    ]\n  }\n]"
    let wrapped = SchemaEnvelope.wrap(bytes(pretty), version: 12, isJSON: true)
    #expect(
      text(wrapped) == """
        {
          "$version" : 12,
          "value" : [
            {
              "a" : [

              ]
            }
          ]
        }
        """
    )
    let (version, payload) = try #require(SchemaEnvelope.unwrap(wrapped))
    #expect(version == 12)
    let decoded = try JSONSerialization.jsonObject(with: payload) as? [[String: [Int]]]
    #expect(decoded == [["a": []]])
  }

  @Test(arguments: ["plain text\nwith \"quotes\" and / slashes", "", "é ✓"])
  func utf8BytesAreHeldAsText(_ string: String) throws {
    let wrapped = SchemaEnvelope.wrap(bytes(string), version: 3, isJSON: false)
    #expect(text(wrapped)?.hasPrefix(#"{"$version":3,"text":""#) == true)
    let (version, payload) = try #require(SchemaEnvelope.unwrap(wrapped))
    #expect(version == 3)
    #expect(text(payload) == string)
  }

  @Test func otherBytesAreHeldInBase64() throws {
    let binary = Data([0xFF, 0xFE, 0x00, 0x80])
    let wrapped = SchemaEnvelope.wrap(binary, version: 2, isJSON: false)
    #expect(text(wrapped)?.hasPrefix(#"{"$version":2,"base64":"#) == true)
    #expect(SchemaEnvelope.unwrap(wrapped)?.payload == binary)
  }

  @Test func whitespaceAroundTokensIsAllowed() {
    let spaced = " \n{ \"$version\"\t: 4 ,\r\n \"value\" :\n [1] \n}\n "
    #expect(SchemaEnvelope.unwrap(bytes(spaced))?.version == 4)
    #expect(text(SchemaEnvelope.unwrap(bytes(spaced))?.payload) == "[1]")
  }

  @Test(arguments: [
    #"[1, 2]"#,
    #""text""#,
    #"{"value":[1],"$version":2}"#,
    #"{"version":2,"value":[1]}"#,
    #"{"$version":"2","value":[1]}"#,
    #"{"$version":0,"value":[1]}"#,
    #"{"$version":2,"other":[1]}"#,
    #"{"$version":2,"value":}"#,
    #"{"$version":2,"value":[1]"#,
    #"{"$version":12345678901,"value":[1]}"#,
    #"{"$version":2,"text":"\"#,
    #"{"$version":2,"base64":"not base 64!"}"#,
    "",
  ])
  func otherBytesAreVersion1(_ string: String) {
    #expect(SchemaEnvelope.unwrap(bytes(string)) == nil)
  }
}
