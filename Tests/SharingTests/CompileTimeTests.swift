import Foundation
import Sharing

// Pins call-site forms of the umbrella API; compiling is the test.

private let notesURL = URL.temporaryDirectory.appending(component: "notes.txt")

private struct Notes {
  // NB: Inline coding closures need '@Sendable' spelled out at a property wrapper: Swift 6.3
  //     does not infer it for closures in an implicit member expression there.
  @Shared(
    .fileStorage(
      notesURL,
      decode: { @Sendable in String(decoding: $0, as: UTF8.self) },
      encode: { @Sendable in Data($0.utf8) }
    )
  )
  var text = ""
}

private func explicitKeyTypesNeedNoAnnotation() -> FileStorageKey<String> {
  .fileStorage(notesURL, decode: { String(decoding: $0, as: UTF8.self) }, encode: { Data($0.utf8) })
}
