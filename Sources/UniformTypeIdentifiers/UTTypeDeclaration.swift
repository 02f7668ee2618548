/// One declared type: its identifier, the types it conforms to directly, its tags (the
/// preferred first) and its description. The table below is the module's type database,
/// written once; ``UTType``'s static members and every lookup read it.
struct UTTypeDeclaration: Sendable {
    let identifier: String
    let conformsTo: [String]
    let filenameExtensions: [String]
    let mimeTypes: [String]
    let description: String

    init(_ identifier: String, _ conformsTo: [String], _ description: String, extensions: [String] = [], mimeTypes: [String] = []) {
        self.identifier = identifier
        self.conformsTo = conformsTo
        self.description = description
        filenameExtensions = extensions
        self.mimeTypes = mimeTypes
    }

    /// The declarations by lower-case identifier.
    static let byIdentifier: [String: UTTypeDeclaration] = Dictionary(
        table.map { ($0.identifier.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })

    /// The declarations by tag class and lower-case tag, in the table's order (the preferred
    /// type for a tag first).
    static let byTag: [UTTagClass: [String: [UTTypeDeclaration]]] = {
        var tags: [UTTagClass: [String: [UTTypeDeclaration]]] = [:]
        for declaration in table {
            for ext in declaration.filenameExtensions { tags[.filenameExtension, default: [:]][ext.lowercased(), default: []].append(declaration) }
            for mime in declaration.mimeTypes { tags[.mimeType, default: [:]][mime.lowercased(), default: []].append(declaration) }
        }
        return tags
    }()

    /// The table. A type listed earlier is preferred for a tag several types share.
    static let table: [UTTypeDeclaration] = [
        // Base types
        .init("public.item", [], "item"),
        .init("public.content", [], "content"),
        .init("public.composite-content", ["public.content"], "composite content"),
        .init("public.data", ["public.item"], "data"),
        .init("public.directory", ["public.item"], "directory"),
        .init("public.folder", ["public.directory"], "folder"),
        .init("public.volume", ["public.folder"], "volume"),
        .init("com.apple.package", ["public.directory"], "package"),
        .init("com.apple.bundle", ["public.directory"], "bundle"),
        .init("com.apple.resolvable", [], "resolvable"),
        .init("public.symlink", ["public.item", "com.apple.resolvable"], "symbolic link"),
        .init("com.apple.alias-file", ["public.data", "com.apple.resolvable"], "alias"),
        .init("com.apple.mount-point", ["public.item", "com.apple.resolvable"], "mount point"),
        .init("public.executable", ["public.item"], "executable"),
        .init("public.unix-executable", ["public.data", "public.executable"], "Unix executable"),
        .init("public.url", ["public.data"], "URL"),
        .init("public.file-url", ["public.url"], "file URL"),
        .init("public.disk-image", ["public.data", "public.archive"], "disk image"),
        // Text and documents
        .init("public.text", ["public.data", "public.content"], "text"),
        .init("public.plain-text", ["public.text"], "plain text", extensions: ["txt", "text"], mimeTypes: ["text/plain"]),
        .init("public.utf8-plain-text", ["public.plain-text"], "UTF-8 plain text"),
        .init("public.utf16-external-plain-text", ["public.plain-text"], "UTF-16 plain text with byte-order mark"),
        .init("public.utf16-plain-text", ["public.plain-text"], "UTF-16 plain text"),
        .init("public.delimited-values-text", ["public.text"], "delimited values text"),
        .init(
            "public.comma-separated-values-text", ["public.delimited-values-text"], "comma-separated values",
            extensions: ["csv"], mimeTypes: ["text/csv", "text/comma-separated-values"]),
        .init(
            "public.tab-separated-values-text", ["public.delimited-values-text"], "tab-separated values",
            extensions: ["tsv"], mimeTypes: ["text/tab-separated-values"]),
        .init("public.utf8-tab-separated-values-text", ["public.tab-separated-values-text"], "UTF-8 tab-separated values"),
        .init("public.rtf", ["public.text"], "rich text", extensions: ["rtf"], mimeTypes: ["text/rtf", "application/rtf"]),
        .init("public.html", ["public.text"], "HTML text", extensions: ["html", "htm", "shtml", "shtm"], mimeTypes: ["text/html"]),
        .init("public.xml", ["public.text"], "XML text", extensions: ["xml"], mimeTypes: ["application/xml", "text/xml"]),
        .init("public.yaml", ["public.text"], "YAML", extensions: ["yaml", "yml"], mimeTypes: ["application/x-yaml"]),
        .init("public.json", ["public.text"], "JSON", extensions: ["json"], mimeTypes: ["application/json"]),
        .init("public.source-code", ["public.plain-text"], "source code"),
        .init("public.script", ["public.source-code"], "script"),
        .init("public.shell-script", ["public.script"], "shell script", extensions: ["sh", "command"], mimeTypes: ["application/x-sh"]),
        .init("public.python-script", ["public.script"], "Python script", extensions: ["py"], mimeTypes: ["text/x-python-script"]),
        .init("public.log", ["public.plain-text"], "log file", extensions: ["log"]),
        .init("com.apple.property-list", ["public.data"], "property list", extensions: ["plist"]),
        .init("com.apple.xml-property-list", ["public.xml", "com.apple.property-list"], "XML property list"),
        .init("com.apple.binary-property-list", ["com.apple.property-list"], "binary property list"),
        .init("com.adobe.pdf", ["public.data", "public.composite-content"], "PDF document", extensions: ["pdf"], mimeTypes: ["application/pdf"]),
        .init("public.spreadsheet", ["public.content"], "spreadsheet"),
        .init("public.presentation", ["public.composite-content"], "presentation"),
        .init("public.database", [], "database"),
        .init("public.contact", ["public.content"], "contact"),
        .init("public.vcard", ["public.text", "public.contact"], "vCard", extensions: ["vcf", "vcard"], mimeTypes: ["text/vcard", "text/x-vcard"]),
        .init("public.message", [], "message"),
        .init("public.email-message", ["public.message"], "email message", extensions: ["eml"], mimeTypes: ["message/rfc822"]),
        .init("public.font", ["public.data", "public.content"], "font"),
        .init("com.adobe.xmp", ["public.xml"], "XMP metadata", extensions: ["xmp"], mimeTypes: ["application/rdf+xml"]),
        // Archives
        .init("public.archive", ["public.data"], "archive"),
        .init("public.zip-archive", ["public.archive"], "ZIP archive", extensions: ["zip"], mimeTypes: ["application/zip"]),
        .init("org.gnu.gnu-zip-archive", ["public.archive"], "gzip archive", extensions: ["gz", "gzip"], mimeTypes: ["application/x-gzip", "application/gzip"]),
        .init("public.bzip2-archive", ["public.archive"], "bzip2 archive", extensions: ["bz2", "bzip2"], mimeTypes: ["application/x-bzip2"]),
        .init("public.tar-archive", ["public.archive"], "tar archive", extensions: ["tar"], mimeTypes: ["application/x-tar"]),
        .init("org.idpf.epub-container", ["public.zip-archive", "public.composite-content"], "EPUB", extensions: ["epub"], mimeTypes: ["application/epub+zip"]),
        // Images
        .init("public.image", ["public.data", "public.content"], "image"),
        .init("public.jpeg", ["public.image"], "JPEG image", extensions: ["jpeg", "jpg", "jpe"], mimeTypes: ["image/jpeg", "image/jpg"]),
        .init("public.png", ["public.image"], "PNG image", extensions: ["png"], mimeTypes: ["image/png"]),
        .init("public.heif-standard", ["public.image"], "HEIF image"),
        .init("public.heic", ["public.heif-standard"], "HEIF image", extensions: ["heic"], mimeTypes: ["image/heic"]),
        .init("public.heif", ["public.heif-standard"], "HEIF image", extensions: ["heif", "hif"], mimeTypes: ["image/heif"]),
        .init("public.heics", ["public.heif-standard"], "HEIF image sequence", extensions: ["heics"], mimeTypes: ["image/heic-sequence"]),
        .init("public.avif", ["public.image"], "AVIF image", extensions: ["avif"], mimeTypes: ["image/avif"]),
        .init("org.webmproject.webp", ["public.image"], "WebP image", extensions: ["webp"], mimeTypes: ["image/webp"]),
        .init("com.compuserve.gif", ["public.image"], "GIF image", extensions: ["gif"], mimeTypes: ["image/gif"]),
        .init("public.tiff", ["public.image"], "TIFF image", extensions: ["tiff", "tif"], mimeTypes: ["image/tiff"]),
        .init("public.jpeg-xl", ["public.image"], "JPEG XL image", extensions: ["jxl"], mimeTypes: ["image/jxl"]),
        .init("com.microsoft.bmp", ["public.image"], "Windows bitmap image", extensions: ["bmp", "dib"], mimeTypes: ["image/bmp", "image/x-bmp"]),
        .init("com.microsoft.ico", ["public.image"], "Windows icon image", extensions: ["ico"], mimeTypes: ["image/vnd.microsoft.icon", "image/x-icon"]),
        .init("com.apple.icns", ["public.image"], "Apple icon image", extensions: ["icns"]),
        .init("public.svg-image", ["public.image"], "SVG image", extensions: ["svg"], mimeTypes: ["image/svg+xml"]),
        .init("com.ilm.openexr-image", ["public.image"], "OpenEXR image", extensions: ["exr"]),
        .init("com.apple.live-photo", [], "Live Photo"),
        .init("public.camera-raw-image", ["public.image"], "raw image"),
        .init("com.adobe.raw-image", ["public.camera-raw-image"], "DNG image", extensions: ["dng"], mimeTypes: ["image/x-adobe-dng"]),
        .init("com.canon.cr2-raw-image", ["public.camera-raw-image"], "Canon CR2 raw image", extensions: ["cr2"], mimeTypes: ["image/x-canon-cr2"]),
        .init("com.canon.cr3-raw-image", ["public.camera-raw-image"], "Canon CR3 raw image", extensions: ["cr3"], mimeTypes: ["image/x-canon-cr3"]),
        .init("com.nikon.raw-image", ["public.camera-raw-image"], "Nikon raw image", extensions: ["nef"], mimeTypes: ["image/x-nikon-nef"]),
        .init("com.nikon.nrw-raw-image", ["public.camera-raw-image"], "Nikon NRW raw image", extensions: ["nrw"], mimeTypes: ["image/x-nikon-nrw"]),
        .init("com.sony.arw-raw-image", ["public.camera-raw-image"], "Sony ARW raw image", extensions: ["arw"], mimeTypes: ["image/x-sony-arw"]),
        .init("com.sony.raw-image", ["public.camera-raw-image"], "Sony raw image", extensions: ["srf"], mimeTypes: ["image/x-sony-srf"]),
        .init("com.sony.sr2-raw-image", ["public.camera-raw-image"], "Sony SR2 raw image", extensions: ["sr2"], mimeTypes: ["image/x-sony-sr2"]),
        .init("com.fuji.raw-image", ["public.camera-raw-image"], "Fujifilm raw image", extensions: ["raf"], mimeTypes: ["image/x-fuji-raf"]),
        .init("com.olympus.raw-image", ["public.camera-raw-image"], "Olympus raw image", extensions: ["orf"], mimeTypes: ["image/x-olympus-orf"]),
        .init("com.panasonic.rw2-raw-image", ["public.camera-raw-image"], "Panasonic raw image", extensions: ["rw2"], mimeTypes: ["image/x-panasonic-rw2"]),
        .init("com.pentax.raw-image", ["public.camera-raw-image"], "Pentax raw image", extensions: ["pef"], mimeTypes: ["image/x-pentax-pef"]),
        .init("public.3d-content", ["public.content"], "3D content"),
        // Audio and video
        .init("public.audiovisual-content", ["public.data", "public.content"], "audiovisual content"),
        .init("public.movie", ["public.audiovisual-content"], "movie"),
        .init("public.video", ["public.movie"], "video"),
        .init("public.audio", ["public.audiovisual-content"], "audio"),
        .init("com.apple.quicktime-movie", ["public.movie"], "QuickTime movie", extensions: ["mov", "qt"], mimeTypes: ["video/quicktime"]),
        .init("public.mpeg-4", ["public.movie"], "MPEG-4 movie", extensions: ["mp4", "mpeg4"], mimeTypes: ["video/mp4", "video/mp4v"]),
        .init("com.apple.m4v-video", ["public.mpeg-4"], "MPEG-4 video", extensions: ["m4v"], mimeTypes: ["video/x-m4v"]),
        .init("public.3gpp", ["public.movie"], "3GPP movie", extensions: ["3gp", "3gpp"], mimeTypes: ["video/3gpp", "audio/3gpp"]),
        .init("public.3gpp2", ["public.movie"], "3GPP2 movie", extensions: ["3g2", "3gp2"], mimeTypes: ["video/3gpp2", "audio/3gpp2"]),
        .init("public.mpeg", ["public.movie"], "MPEG movie", extensions: ["mpg", "mpeg", "mpe", "m75", "m15"], mimeTypes: ["video/mpeg", "video/mpg"]),
        .init("public.mpeg-2-video", ["public.movie"], "MPEG-2 video", extensions: ["m2v"], mimeTypes: ["video/mpeg2"]),
        .init("public.mpeg-2-transport-stream", ["public.movie"], "MPEG-2 transport stream", extensions: ["ts", "m2ts", "mts"], mimeTypes: ["video/mp2t"]),
        .init("public.avi", ["public.movie"], "AVI movie", extensions: ["avi", "vfw"], mimeTypes: ["video/avi", "video/msvideo", "video/x-msvideo"]),
        .init("org.webmproject.webm", ["public.movie"], "WebM movie", extensions: ["webm"], mimeTypes: ["video/webm"]),
        .init("org.matroska.mkv", ["public.movie"], "Matroska movie", extensions: ["mkv"], mimeTypes: ["video/x-matroska"]),
        .init("com.apple.protected-mpeg-4-video", ["com.apple.m4v-video"], "protected MPEG-4 video", extensions: ["m4p"]),
        .init("public.mp3", ["public.audio"], "MP3 audio", extensions: ["mp3"], mimeTypes: ["audio/mpeg", "audio/mp3"]),
        .init("public.mpeg-4-audio", ["public.mpeg-4", "public.audio"], "MPEG-4 audio", extensions: ["m4a", "m4b"], mimeTypes: ["audio/mp4", "audio/x-m4a"]),
        .init("com.apple.protected-mpeg-4-audio", ["public.audio"], "protected MPEG-4 audio"),
        .init("public.aiff-audio", ["public.audio"], "AIFF audio", extensions: ["aiff", "aif"], mimeTypes: ["audio/aiff", "audio/x-aiff"]),
        .init("com.microsoft.waveform-audio", ["public.audio"], "Waveform audio", extensions: ["wav", "wave"], mimeTypes: ["audio/wav", "audio/vnd.wave", "audio/x-wav"]),
        .init("public.midi-audio", ["public.audio"], "MIDI audio", extensions: ["mid", "midi"], mimeTypes: ["audio/midi", "audio/x-midi"]),
        .init("public.playlist", [], "playlist"),
        .init("public.m3u-playlist", ["public.text", "public.playlist"], "M3U playlist", extensions: ["m3u", "m3u8"], mimeTypes: ["audio/mpegurl", "application/vnd.apple.mpegurl"]),
    ]
}
