// Apple's static members, each a declared type of ``UTTypeDeclaration``'s table.
extension UTType {
    /// `public.item`.
    public static let item = UTType(declared: "public.item")
    /// `public.content`.
    public static let content = UTType(declared: "public.content")
    /// `public.composite-content`.
    public static let compositeContent = UTType(declared: "public.composite-content")
    /// `public.disk-image`.
    public static let diskImage = UTType(declared: "public.disk-image")
    /// `public.data`.
    public static let data = UTType(declared: "public.data")
    /// `public.directory`.
    public static let directory = UTType(declared: "public.directory")
    /// `public.folder`.
    public static let folder = UTType(declared: "public.folder")
    /// `public.volume`.
    public static let volume = UTType(declared: "public.volume")
    /// `com.apple.package`.
    public static let package = UTType(declared: "com.apple.package")
    /// `com.apple.bundle`.
    public static let bundle = UTType(declared: "com.apple.bundle")
    /// `com.apple.resolvable`.
    public static let resolvable = UTType(declared: "com.apple.resolvable")
    /// `public.symlink`.
    public static let symbolicLink = UTType(declared: "public.symlink")
    /// `com.apple.alias-file`.
    public static let aliasFile = UTType(declared: "com.apple.alias-file")
    /// `com.apple.mount-point`.
    public static let mountPoint = UTType(declared: "com.apple.mount-point")
    /// `public.executable`.
    public static let executable = UTType(declared: "public.executable")
    /// `public.unix-executable`.
    public static let unixExecutable = UTType(declared: "public.unix-executable")
    /// `public.url`.
    public static let url = UTType(declared: "public.url")
    /// `public.file-url`.
    public static let fileURL = UTType(declared: "public.file-url")
    /// `public.text`.
    public static let text = UTType(declared: "public.text")
    /// `public.plain-text`.
    public static let plainText = UTType(declared: "public.plain-text")
    /// `public.utf8-plain-text`.
    public static let utf8PlainText = UTType(declared: "public.utf8-plain-text")
    /// `public.utf16-external-plain-text`.
    public static let utf16ExternalPlainText = UTType(declared: "public.utf16-external-plain-text")
    /// `public.utf16-plain-text`.
    public static let utf16PlainText = UTType(declared: "public.utf16-plain-text")
    /// `public.delimited-values-text`.
    public static let delimitedText = UTType(declared: "public.delimited-values-text")
    /// `public.comma-separated-values-text`.
    public static let commaSeparatedText = UTType(declared: "public.comma-separated-values-text")
    /// `public.tab-separated-values-text`.
    public static let tabSeparatedText = UTType(declared: "public.tab-separated-values-text")
    /// `public.utf8-tab-separated-values-text`.
    public static let utf8TabSeparatedText = UTType(declared: "public.utf8-tab-separated-values-text")
    /// `public.rtf`.
    public static let rtf = UTType(declared: "public.rtf")
    /// `public.html`.
    public static let html = UTType(declared: "public.html")
    /// `public.xml`.
    public static let xml = UTType(declared: "public.xml")
    /// `public.yaml`.
    public static let yaml = UTType(declared: "public.yaml")
    /// `public.json`.
    public static let json = UTType(declared: "public.json")
    /// `public.source-code`.
    public static let sourceCode = UTType(declared: "public.source-code")
    /// `public.script`.
    public static let script = UTType(declared: "public.script")
    /// `public.shell-script`.
    public static let shellScript = UTType(declared: "public.shell-script")
    /// `public.python-script`.
    public static let pythonScript = UTType(declared: "public.python-script")
    /// `public.log`.
    public static let log = UTType(declared: "public.log")
    /// `com.apple.property-list`.
    public static let propertyList = UTType(declared: "com.apple.property-list")
    /// `com.apple.xml-property-list`.
    public static let xmlPropertyList = UTType(declared: "com.apple.xml-property-list")
    /// `com.apple.binary-property-list`.
    public static let binaryPropertyList = UTType(declared: "com.apple.binary-property-list")
    /// `com.adobe.pdf`.
    public static let pdf = UTType(declared: "com.adobe.pdf")
    /// `public.spreadsheet`.
    public static let spreadsheet = UTType(declared: "public.spreadsheet")
    /// `public.presentation`.
    public static let presentation = UTType(declared: "public.presentation")
    /// `public.database`.
    public static let database = UTType(declared: "public.database")
    /// `public.contact`.
    public static let contact = UTType(declared: "public.contact")
    /// `public.vcard`.
    public static let vCard = UTType(declared: "public.vcard")
    /// `public.message`.
    public static let message = UTType(declared: "public.message")
    /// `public.email-message`.
    public static let emailMessage = UTType(declared: "public.email-message")
    /// `public.font`.
    public static let font = UTType(declared: "public.font")
    /// `public.archive`.
    public static let archive = UTType(declared: "public.archive")
    /// `public.zip-archive`.
    public static let zip = UTType(declared: "public.zip-archive")
    /// `org.gnu.gnu-zip-archive`.
    public static let gzip = UTType(declared: "org.gnu.gnu-zip-archive")
    /// `public.bzip2-archive`.
    public static let bz2 = UTType(declared: "public.bzip2-archive")
    /// `org.idpf.epub-container`.
    public static let epub = UTType(declared: "org.idpf.epub-container")
    /// `public.image`.
    public static let image = UTType(declared: "public.image")
    /// `public.jpeg`.
    public static let jpeg = UTType(declared: "public.jpeg")
    /// `public.png`.
    public static let png = UTType(declared: "public.png")
    /// `public.heic`.
    public static let heic = UTType(declared: "public.heic")
    /// `public.heif`.
    public static let heif = UTType(declared: "public.heif")
    /// `public.heics`.
    public static let heics = UTType(declared: "public.heics")
    /// `org.webmproject.webp`.
    public static let webP = UTType(declared: "org.webmproject.webp")
    /// `com.compuserve.gif`.
    public static let gif = UTType(declared: "com.compuserve.gif")
    /// `public.tiff`.
    public static let tiff = UTType(declared: "public.tiff")
    /// `public.jpeg-xl`.
    public static let jpegxl = UTType(declared: "public.jpeg-xl")
    /// `com.microsoft.bmp`.
    public static let bmp = UTType(declared: "com.microsoft.bmp")
    /// `com.microsoft.ico`.
    public static let ico = UTType(declared: "com.microsoft.ico")
    /// `com.apple.icns`.
    public static let icns = UTType(declared: "com.apple.icns")
    /// `public.svg-image`.
    public static let svg = UTType(declared: "public.svg-image")
    /// `com.ilm.openexr-image`.
    public static let exr = UTType(declared: "com.ilm.openexr-image")
    /// `com.apple.live-photo`.
    public static let livePhoto = UTType(declared: "com.apple.live-photo")
    /// `public.camera-raw-image`.
    public static let rawImage = UTType(declared: "public.camera-raw-image")
    /// `com.adobe.raw-image`.
    public static let dng = UTType(declared: "com.adobe.raw-image")
    /// `public.3d-content`.
    public static let threeDContent = UTType(declared: "public.3d-content")
    /// `public.audiovisual-content`.
    public static let audiovisualContent = UTType(declared: "public.audiovisual-content")
    /// `public.movie`.
    public static let movie = UTType(declared: "public.movie")
    /// `public.video`.
    public static let video = UTType(declared: "public.video")
    /// `public.audio`.
    public static let audio = UTType(declared: "public.audio")
    /// `com.apple.quicktime-movie`.
    public static let quickTimeMovie = UTType(declared: "com.apple.quicktime-movie")
    /// `public.mpeg-4`.
    public static let mpeg4Movie = UTType(declared: "public.mpeg-4")
    /// `public.mpeg`.
    public static let mpeg = UTType(declared: "public.mpeg")
    /// `public.mpeg-2-video`.
    public static let mpeg2Video = UTType(declared: "public.mpeg-2-video")
    /// `public.mpeg-2-transport-stream`.
    public static let mpeg2TransportStream = UTType(declared: "public.mpeg-2-transport-stream")
    /// `public.avi`.
    public static let avi = UTType(declared: "public.avi")
    /// `com.apple.protected-mpeg-4-video`.
    public static let appleProtectedMPEG4Video = UTType(declared: "com.apple.protected-mpeg-4-video")
    /// `public.mp3`.
    public static let mp3 = UTType(declared: "public.mp3")
    /// `public.mpeg-4-audio`.
    public static let mpeg4Audio = UTType(declared: "public.mpeg-4-audio")
    /// `com.apple.protected-mpeg-4-audio`.
    public static let appleProtectedMPEG4Audio = UTType(declared: "com.apple.protected-mpeg-4-audio")
    /// `public.aiff-audio`.
    public static let aiff = UTType(declared: "public.aiff-audio")
    /// `com.microsoft.waveform-audio`.
    public static let wav = UTType(declared: "com.microsoft.waveform-audio")
    /// `public.midi-audio`.
    public static let midi = UTType(declared: "public.midi-audio")
    /// `public.playlist`.
    public static let playlist = UTType(declared: "public.playlist")
    /// `public.m3u-playlist`.
    public static let m3uPlaylist = UTType(declared: "public.m3u-playlist")

    /// Every static member, for the tests that hold them to the table.
    static let staticMembers: [UTType] = [
        .item, .content, .compositeContent, .diskImage, .data, .directory, .folder, .volume, .package, .bundle,
        .resolvable, .symbolicLink, .aliasFile, .mountPoint, .executable, .unixExecutable, .url, .fileURL, .text,
        .plainText, .utf8PlainText, .utf16ExternalPlainText, .utf16PlainText, .delimitedText, .commaSeparatedText,
        .tabSeparatedText, .utf8TabSeparatedText, .rtf, .html, .xml, .yaml, .json, .sourceCode, .script, .shellScript,
        .pythonScript, .log, .propertyList, .xmlPropertyList, .binaryPropertyList, .pdf, .spreadsheet, .presentation,
        .database, .contact, .vCard, .message, .emailMessage, .font, .archive, .zip, .gzip, .bz2, .epub, .image, .jpeg,
        .png, .heic, .heif, .heics, .webP, .gif, .tiff, .jpegxl, .bmp, .ico, .icns, .svg, .exr, .livePhoto, .rawImage,
        .dng, .threeDContent, .audiovisualContent, .movie, .video, .audio, .quickTimeMovie, .mpeg4Movie, .mpeg,
        .mpeg2Video, .mpeg2TransportStream, .avi, .appleProtectedMPEG4Video, .mp3, .mpeg4Audio,
        .appleProtectedMPEG4Audio, .aiff, .wav, .midi, .playlist, .m3uPlaylist,
    ]
}
