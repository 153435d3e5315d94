//! The one error type of the stack map module: parsing, writing and object-file handling.

/// Everything that can go wrong reading, writing or converting a stack map section.
///
/// Byte offsets are from the start of the section (not of the blob), so a linked section with several
/// blobs still points at the right byte.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The section ends inside a field or table: `what` starts at `offset` and needs `needed` bytes,
    /// but the section has only `available` bytes from there.
    #[error("at byte {offset}: {what} needs {needed} bytes but the section has only {available} left")]
    UnexpectedEnd {
        /// Where the truncated item starts.
        offset: usize,
        /// The item being read, e.g. "function table".
        what: &'static str,
        /// Bytes the item needs.
        needed: u64,
        /// Bytes left in the section from `offset`.
        available: usize,
    },
    /// Byte 0 of a blob is not 1, 2 or 3.
    #[error("at byte {offset}: unsupported stack map version {version} (supported: 1, 2, 3)")]
    UnsupportedVersion {
        /// Offset of the version byte.
        offset: usize,
        /// The version byte found.
        version: u8,
    },
    /// A location's type byte is not 1..=5 (Register, Direct, Indirect, Constant, ConstantIndex).
    #[error("at byte {offset}: invalid location type {kind} (expected 1 to 5)")]
    InvalidLocationKind {
        /// Offset of the type byte.
        offset: usize,
        /// The type byte found.
        kind: u8,
    },
    /// A ConstantIndex location refers past the end of the constant pool.
    #[error("at byte {offset}: constant index {index} is out of range (the pool has {constants} constants)")]
    ConstantIndexOutOfRange {
        /// Offset of the location.
        offset: usize,
        /// The index found.
        index: u32,
        /// Size of the constant pool.
        constants: u32,
    },
    /// In a v2/v3 blob starting at `offset`, the function records' record counts do not add up to
    /// NumRecords (or overflow).
    #[error("at byte {offset}: the function records count {counted} records but the header says {records}")]
    RecordCountMismatch {
        /// Offset of the blob.
        offset: usize,
        /// Sum of the record counts (saturated at `u64::MAX`).
        counted: u64,
        /// NumRecords from the header, or the number of records in the model.
        records: u64,
    },
    /// Records of a function were requested from a v1 blob, which does not store per-function record
    /// counts; supply them with `StackMapView::with_record_counts`.
    #[error("the blob at byte {offset} is version 1, which does not record which function each record belongs to")]
    RecordCountsUnknown {
        /// Offset of the blob.
        offset: usize,
    },
    /// A function index past the end of the function table.
    #[error("no function {index}: the blob has {functions} functions")]
    NoSuchFunction {
        /// The index asked for.
        index: usize,
        /// NumFunctions.
        functions: u32,
    },
    /// A table is too large for the format's 32-bit count (or a blob is too large to address).
    #[error("cannot write {count} {what}: the format's limit is {limit}")]
    TooMany {
        /// What there are too many of, e.g. "functions".
        what: &'static str,
        /// How many there are.
        count: u64,
        /// The most the format can hold.
        limit: u64,
    },
    /// `derive_record_counts` got a different number of function sizes than there are functions.
    #[error("{sizes} function sizes given for {functions} functions")]
    FunctionSizesMismatch {
        /// Number of function records.
        functions: usize,
        /// Number of sizes given.
        sizes: usize,
    },
    /// No split of the records into contiguous per-function groups satisfies the layout rules
    /// (every function has a record, offsets do not decrease within a function, offsets fit the
    /// function's size).
    #[error("the records cannot be assigned to the functions: no contiguous split fits the functions' sizes")]
    NoRecordSplit,
    /// Several splits of the records into functions are possible; the counts were filled in with the
    /// likeliest (see `StackMap::derive_record_counts`) anyway.
    #[error("the records can be assigned to the functions in more than one way")]
    AmbiguousRecordCounts,
    /// A v1 blob's records fit more than one split between its functions (v1 does not store which
    /// records a function has), and no choice was stated (`object_file::V1Split`).
    #[error(
        "the version 1 blob at byte {offset} does not say which function each record belongs to, and \
         its records fit more than one split: {records}; state the record counts per function \
         (convert --v1-record-counts N,N,..) or accept the likeliest split ({likeliest}; convert \
         --v1-split likeliest)"
    )]
    AmbiguousRecordSplit {
        /// Offset of the blob.
        offset: usize,
        /// The records in question and the functions that can hold each, in words.
        records: String,
        /// The likeliest split's record counts, comma-separated.
        likeliest: String,
    },
    /// Record counts stated for a v1 blob do not split its records as LLVM lays them out.
    #[error("the stated record counts do not fit the records: {reason}")]
    StatedRecordCounts {
        /// What does not fit.
        reason: String,
    },
    /// The table `derive_record_counts` would need exceeds its memory limit.
    #[error("too many functions ({functions}) and records ({records}) to derive record counts")]
    RecordSplitTooLarge {
        /// Number of function records.
        functions: usize,
        /// Number of records.
        records: usize,
    },
    /// The file has no stack map section (`.llvm_stackmaps`, or `__LLVM_STACKMAPS,__llvm_stackmaps`).
    #[error("no stack map section (.llvm_stackmaps) in the file")]
    NoStackMapSection,
    /// The stack map section has no data in the file (for example SHT_NOBITS).
    #[error("the stack map section has no contents in the file")]
    NoSectionData,
    /// The file could not be read as an object file: the field at `offset` is wrong.
    #[error("at byte {offset}: cannot read the object file: {source} ({field})")]
    Object {
        /// The wrong field's byte offset in the file.
        offset: u64,
        /// The field and what is wrong with it.
        field: String,
        /// What `object` could not read.
        source: object::read::Error,
    },
    /// The ELF file could not be rebuilt because the field at `offset` is wrong.
    #[error("at byte {offset}: cannot rebuild the ELF file: {message} ({field})")]
    Build {
        /// The wrong field's byte offset in the file.
        offset: u64,
        /// The field and what is wrong with it.
        field: String,
        /// What `object`'s ELF builder could not do.
        message: String,
    },
    /// `object` failed where no wrong field was found (an error of its own, or a format it reads
    /// further than [`crate::stackmap::malformed::locate`] follows).
    #[error("cannot read the object file: {0}")]
    ObjectUnlocated(object::read::Error),
    /// The ELF builder failed where no wrong field was found (writing the rebuilt file).
    #[error("cannot rebuild the ELF file: {0}")]
    BuildUnlocated(object::build::Error),
    /// The ELF file cannot be rebuilt safely (for example a corrupt section alignment would make the output
    /// gigabytes large).
    #[error("at byte {offset}: cannot rebuild the ELF file: {reason}")]
    UnsupportedElf {
        /// The byte offset in the file of the field that is wrong.
        offset: u64,
        /// What is wrong.
        reason: String,
    },
    /// Conversion is only implemented for some object formats.
    #[error("converting stack maps in {format} files is not supported (only ELF)")]
    UnsupportedConvertFormat {
        /// The file's format, e.g. "Mach-O".
        format: &'static str,
    },
    /// A relocation applies to a byte of the stack map section other than a function address field, so
    /// it cannot be moved to the converted layout.
    #[error("relocation at section byte {offset} is not at a function address field")]
    UnexpectedRelocation {
        /// The relocation's offset in the section.
        offset: u64,
    },
    /// A frame-table ([`Version::FrameTable`](super::Version::FrameTable)) blob whose structure is wrong:
    /// the field at `offset` breaks the rule `reason` states.
    #[error("at byte {offset}: invalid frame-table (rfc2) stack map: {reason}")]
    InvalidFrameTable {
        /// Section offset of the wrong field.
        offset: usize,
        /// What is wrong.
        reason: String,
    },
    /// A blob with version byte 2 that is valid both as LLVM 4.0's version 2 and as the frame-table
    /// layout: the reader does not guess (parse it with `StackMapView::parse_version`).
    #[error(
        "at byte {offset}: the blob is valid both as LLVM 4.0's stack map version 2 and as the frame-table \
         layout (rfc2); name the version to read it"
    )]
    AmbiguousVersion2 {
        /// Offset of the blob.
        offset: usize,
    },
    /// A value of function `function` does not fit its field of the frame-table layout (u16 counts and
    /// indexes, i16 frame-register offsets, u8 location sizes, u32 stack sizes).
    #[error("cannot write the frame table (rfc2): function {function} (address {address:#x}): {field} {value} does not fit {limit}")]
    FrameTableOverflow {
        /// Index of the function in the function table.
        function: usize,
        /// The function's address field.
        address: u64,
        /// The field, e.g. "frame register offset of R#6".
        field: String,
        /// The value that does not fit.
        value: i128,
        /// The field's type, e.g. "i16".
        limit: &'static str,
    },
    /// Function `function` has no frame-table fields ([`FunctionRecord::frame`](super::FunctionRecord::frame)
    /// is `None`): the frame-table layout cannot be written without inventing them.
    #[error(
        "cannot write the frame table (rfc2): function {function} (address {address:#x}) has no frame \
         information (function size, frame flags, frame base register, frame registers)"
    )]
    MissingFrame {
        /// Index of the function in the function table.
        function: usize,
        /// The function's address field.
        address: u64,
    },
    /// Conversion to the frame-table layout from a section that does not hold what it needs.
    #[error(
        "cannot convert a version {from} stack map to the frame-table layout (rfc2): the section does not \
         record {missing}; these are not derived or invented"
    )]
    FrameTableUnknown {
        /// The version of the input blob.
        from: super::Version,
        /// What the input lacks.
        missing: &'static str,
    },
    /// The version requested for conversion is not 1, 2 or 3.
    #[error("cannot write stack map version {0} (supported: 1, 2, 3)")]
    InvalidTargetVersion(u8),
    /// Writing the printed text failed.
    #[error("cannot write output: {0}")]
    Io(#[from] std::io::Error),
}

impl Error {
    /// `object`'s error about the object file `bytes`, with the place of the wrong field.
    pub fn object(bytes: &[u8], source: object::read::Error) -> Error {
        match super::malformed::locate(bytes, &source.to_string()) {
            Some(fault) => Error::Object { offset: fault.offset, field: fault.field, source },
            None => Error::ObjectUnlocated(source),
        }
    }

    /// The ELF builder's error about the file `bytes`, with the place of the wrong field.
    pub fn build(bytes: &[u8], source: object::build::Error) -> Error {
        let message = source.to_string();
        match super::malformed::locate(bytes, &message) {
            Some(fault) => Error::Build { offset: fault.offset, field: fault.field, message },
            None => Error::BuildUnlocated(source),
        }
    }
}

/// Result of the stack map module.
pub type Result<T, E = Error> = std::result::Result<T, E>;
