import Foundation
import Imaging
import Testing
@testable import UniformTypeIdentifiers

@Suite("UTType: the type table")
struct UTTypeTableTests {
    @Test func everyStaticMemberIsDeclaredUnderItsIdentifier() throws {
        #expect(UTType.staticMembers.count > 80)
        for type in UTType.staticMembers {
            #expect(type.isDeclared, "\(type)")
            #expect(UTType(type.identifier) == type)
            #expect(type.localizedDescription?.isEmpty == false, "\(type)")
        }
        #expect(UTType.jpeg.identifier == "public.jpeg")
        #expect(UTType.heic.identifier == "public.heic")
        #expect(UTType.quickTimeMovie.identifier == "com.apple.quicktime-movie")
        #expect(UTType.mpeg4Movie.identifier == "public.mpeg-4")
        #expect(UTType.webP.identifier == "org.webmproject.webp")
        #expect(UTType.rawImage.identifier == "public.camera-raw-image")
        #expect(UTType.livePhoto.identifier == "com.apple.live-photo")
    }

    @Test func everyConformanceNamesADeclaredTypeAndNoneLoops() {
        for declaration in UTTypeDeclaration.table {
            for parent in declaration.conformsTo {
                #expect(UTTypeDeclaration.byIdentifier[parent] != nil, "\(declaration.identifier) conforms to undeclared \(parent)")
            }
            let type = UTType(declared: declaration.identifier)
            #expect(!type.supertypes.contains(type), "\(type) conforms to itself through others")
        }
        #expect(Set(UTTypeDeclaration.table.map { $0.identifier.lowercased() }).count == UTTypeDeclaration.table.count, "an identifier declared twice")
    }

    @Test func everyFormatTheLibraryReadsIsDeclaredWithItsExtension() throws {
        for format in MediaFormat.allCases {
            let type = try #require(UTType(format.uniformTypeIdentifier), "\(format)")
            #expect(type.isDeclared)
            #expect(type.conforms(to: format.isVideo ? .movie : .image), "\(format)")
            if format.isRAW { #expect(type.conforms(to: .rawImage), "\(format)") }
            #expect(type.preferredFilenameExtension == format.preferredFilenameExtension, "\(format)")
            #expect(UTType(filenameExtension: format.preferredFilenameExtension) == type, "\(format)")
            #expect(type.preferredMIMEType != nil, "\(format)")
            #expect(UTType(mimeType: type.preferredMIMEType ?? "") == type, "\(format)")
        }
    }
}

@Suite("UTType: lookups and conformance")
struct UTTypeLookupTests {
    @Test func extensionsAndMIMETypesFindTheirTypeInAnyCase() {
        #expect(UTType(filenameExtension: "jpg") == .jpeg)
        #expect(UTType(filenameExtension: "JPEG") == .jpeg)
        #expect(UTType(filenameExtension: "heic") == .heic)
        #expect(UTType(filenameExtension: "mov") == .quickTimeMovie)
        #expect(UTType(filenameExtension: "mp4") == .mpeg4Movie)
        #expect(UTType(filenameExtension: "dng") == .dng)
        #expect(UTType(filenameExtension: "NEF")?.identifier == "com.nikon.raw-image")
        #expect(UTType(mimeType: "image/heic") == .heic)
        #expect(UTType(mimeType: "IMAGE/JPEG") == .jpeg)
        #expect(UTType(mimeType: "video/quicktime") == .quickTimeMovie)
        #expect(UTType.jpeg.preferredFilenameExtension == "jpeg")
        #expect(UTType.jpeg.preferredMIMEType == "image/jpeg")
        #expect(UTType.quickTimeMovie.preferredFilenameExtension == "mov")
        #expect(UTType.png.tags[.filenameExtension] == ["png"])
        #expect(UTType.image.preferredFilenameExtension == nil)
        #expect(UTType("PUBLIC.JPEG") == .jpeg)
        #expect(UTType("PUBLIC.JPEG")?.identifier == "public.jpeg")
    }

    @Test func conformanceFollowsTheHierarchy() {
        #expect(UTType.jpeg.conforms(to: .image))
        #expect(UTType.jpeg.conforms(to: .data))
        #expect(UTType.jpeg.conforms(to: .item))
        #expect(UTType.jpeg.conforms(to: .content))
        #expect(UTType.jpeg.conforms(to: .jpeg))
        #expect(!UTType.jpeg.conforms(to: .movie))
        #expect(UTType.jpeg.supertypes == [.image, .data, .item, .content])
        #expect(UTType.heic.conforms(to: .image))
        #expect(UTType.dng.conforms(to: .rawImage))
        #expect(UTType.quickTimeMovie.conforms(to: .audiovisualContent))
        #expect(UTType.mpeg4Audio.conforms(to: .audio))
        #expect(UTType.jpeg.isSubtype(of: .image))
        #expect(!UTType.jpeg.isSubtype(of: .jpeg))
        #expect(UTType.image.isSupertype(of: .png))
        #expect(!UTType.png.isSupertype(of: .image))
        #expect(UTType.jpeg.isPublic)
        #expect(!UTType.quickTimeMovie.isPublic)
    }

    @Test func aConformanceRequirementChoosesAmongTypesOrMakesADynamicOne() throws {
        #expect(UTType(filenameExtension: "jpg", conformingTo: .image) == .jpeg)
        let other = try #require(UTType(filenameExtension: "jpg", conformingTo: .movie))
        #expect(other.isDynamic)
        #expect(other.conforms(to: .movie))
        #expect(UTType.types(tag: "m4a", tagClass: .filenameExtension, conformingTo: nil) == [.mpeg4Audio])
        #expect(UTType.types(tag: "mp4", tagClass: .filenameExtension, conformingTo: .movie) == [.mpeg4Movie])
    }

    @Test func anUnknownTagGivesADynamicTypeThatCarriesIt() throws {
        let type = try #require(UTType(filenameExtension: "xyz"))
        #expect(type.isDynamic)
        #expect(!type.isDeclared)
        #expect(type.preferredFilenameExtension == "xyz")
        #expect(type.preferredMIMEType == nil)
        #expect(type.conforms(to: .data))
        #expect(type.identifier.hasPrefix("dyn.a"))
        #expect(type.identifier.dropFirst(4).allSatisfy { $0.isLowercase || $0.isNumber })
        let again = try #require(UTType(type.identifier))
        #expect(again == type)
        #expect(again.preferredFilenameExtension == "xyz")
        #expect(again.conforms(to: .data))

        let odd = try #require(UTType(mimeType: "application/x-odd; q=a:b,c\\d", conformingTo: .image))
        let decoded = try #require(UTType(odd.identifier))
        #expect(decoded.preferredMIMEType == "application/x-odd; q=a:b,c\\d")
        #expect(decoded.conforms(to: .image))
        #expect(decoded.localizedDescription == nil)
    }

    @Test func invalidInputGivesNil() {
        #expect(UTType("com.example.never-declared") == nil)
        #expect(UTType("dyn.a!!") == nil)
        #expect(UTType(filenameExtension: "") == nil)
        #expect(UTType(filenameExtension: "a/b") == nil)
        #expect(UTType(mimeType: "") == nil)
        #expect(UTType.types(tag: "", tagClass: .mimeType, conformingTo: nil).isEmpty)
    }

    @Test func importedAndExportedTypesConformToTheirParent() {
        let declared = UTType(importedAs: "public.jpeg")
        #expect(declared == .jpeg)
        #expect(declared.preferredFilenameExtension == "jpeg")
        let custom = UTType(exportedAs: "com.example.recipe", conformingTo: .json)
        #expect(custom.identifier == "com.example.recipe")
        #expect(custom.conforms(to: .json))
        #expect(custom.conforms(to: .text))
        #expect(!custom.isDeclared)
        #expect(!custom.isDynamic)
        #expect(UTType(importedAs: "com.example.blob").conforms(to: .data))
        let child = UTType(exportedAs: "com.example.child", conformingTo: custom)
        #expect(child.conforms(to: custom))
        #expect(child.conforms(to: .text))
    }

    @Test func codingWritesTheIdentifier() throws {
        let data = try JSONEncoder().encode([UTType.jpeg, .quickTimeMovie])
        #expect(String(decoding: data, as: UTF8.self) == #"["public.jpeg","com.apple.quicktime-movie"]"#)
        #expect(try JSONDecoder().decode([UTType].self, from: data) == [.jpeg, .quickTimeMovie])
        #expect(UTType.jpeg.description == "public.jpeg")
        #expect(UTType.jpeg.debugDescription == "public.jpeg (JPEG image)")
    }

    @Test func urlsTakeATypesExtension() {
        let folder = URL(fileURLWithPath: "/tmp/edits")
        #expect(folder.appendingPathComponent("photo", conformingTo: .jpeg).lastPathComponent == "photo.jpeg")
        #expect(folder.appendingPathComponent("photo.jpg", conformingTo: .image).lastPathComponent == "photo.jpg")
        #expect(folder.appendingPathComponent("photo.jpg", conformingTo: .heic).lastPathComponent == "photo.jpg.heic")
        #expect(folder.appendingPathComponent("clip").appendingPathExtension(for: .quickTimeMovie).lastPathComponent == "clip.mov")
    }
}
