#ifndef CVIPS_SHIM_H
#define CVIPS_SHIM_H

/*
 * The C edge of the Imaging module: libvips' public header plus `static inline` wrappers for
 * the variadic calls (`vips_thumbnail(..., NULL)` and friends), which Swift cannot call.
 * Each wrapper passes a fixed set of optional arguments and nothing else; all logic is in Swift.
 */
#include <vips/vips.h>
/* libheif (libvips-dev depends on libheif-dev): decoding a HEIF/AVIF primary image directly
 * when libvips' heifload refuses one that libheif decodes (HEIFDecoder.swift). */
#include <libheif/heif.h>
/* glibc's malloc statistics and trimming (HeapMemory.swift): libvips' decode buffers come from
 * malloc, and the Glibc module doesn't export these. */
#include <malloc.h>

/* VIPS_INIT is a macro; this is the function it wraps. */
static inline int cvips_init(const char *argv0) {
    return vips_init(argv0);
}

/* --- loading ---------------------------------------------------------------------------- */

/* Opens a file lazily: only the header is read until pixels are asked for. */
static inline VipsImage *cvips_image_new_from_file(const char *path, int access, int fail_on) {
    return vips_image_new_from_file(path,
        "access", (VipsAccess) access,
        "fail_on", (VipsFailOn) fail_on,
        NULL);
}

/* A HEIF/HEIC/AVIF opened with heifload itself: libvips' sniffing knows fewer brands than
 * libheif reads (an AVIF sequence's "avis"), and then hands the file to ImageMagick. */
static inline VipsImage *cvips_heifload(const char *path, int access, int fail_on) {
    VipsImage *out = NULL;
    if (vips_heifload(path, &out, "access", (VipsAccess) access, "fail_on", (VipsFailOn) fail_on, NULL))
        return NULL;
    return out;
}

static inline VipsImage *cvips_heifload_source(VipsSource *source, int access, int fail_on) {
    VipsImage *out = NULL;
    if (vips_heifload_source(source, &out, "access", (VipsAccess) access, "fail_on", (VipsFailOn) fail_on, NULL))
        return NULL;
    return out;
}

/* Wraps a private copy of the bytes in a source, so the image never points into Swift memory. */
static inline VipsSource *cvips_source_new_from_copy(const void *data, size_t length) {
    VipsBlob *blob = vips_blob_copy(data, length);
    VipsSource *source = vips_source_new_from_blob(blob);
    vips_area_unref(VIPS_AREA(blob));
    return source;
}

static inline VipsImage *cvips_image_new_from_source(VipsSource *source, int access, int fail_on) {
    return vips_image_new_from_source(source, "",
        "access", (VipsAccess) access,
        "fail_on", (VipsFailOn) fail_on,
        NULL);
}

/* --- thumbnails and geometry ------------------------------------------------------------ */
/* Thumbnails keep the source's colour space (CMYK is turned into sRGB by libvips itself);
 * VipsImage+Colour.swift converts the few with an embedded non-sRGB profile afterwards,
 * since "export_profile" would build a colour transform for every file (~12 ms). */

static inline int cvips_thumbnail(const char *path, VipsImage **out, int width, int height,
                                  int crop, int size, int fail_on) {
    return vips_thumbnail(path, out, width,
        "height", height,
        "crop", (VipsInteresting) crop,
        "size", (VipsSize) size,
        "fail_on", (VipsFailOn) fail_on,
        NULL);
}

static inline int cvips_thumbnail_source(VipsSource *source, VipsImage **out, int width,
                                         int height, int crop, int size, int fail_on) {
    return vips_thumbnail_source(source, out, width,
        "height", height,
        "crop", (VipsInteresting) crop,
        "size", (VipsSize) size,
        "fail_on", (VipsFailOn) fail_on,
        NULL);
}

static inline int cvips_thumbnail_image(VipsImage *in, VipsImage **out, int width, int height,
                                        int crop, int size) {
    return vips_thumbnail_image(in, out, width,
        "height", height,
        "crop", (VipsInteresting) crop,
        "size", (VipsSize) size,
        NULL);
}

static inline int cvips_autorot(VipsImage *in, VipsImage **out) {
    return vips_autorot(in, out, NULL);
}

static inline int cvips_extract_area(VipsImage *in, VipsImage **out,
                                     int left, int top, int width, int height) {
    return vips_extract_area(in, out, left, top, width, height, NULL);
}

static inline int cvips_copy(VipsImage *in, VipsImage **out) {
    return vips_copy(in, out, NULL);
}

static inline int cvips_copy_interpretation(VipsImage *in, VipsImage **out, int interpretation) {
    return vips_copy(in, out, "interpretation", (VipsInterpretation) interpretation, NULL);
}

/* Forces every pixel to be decoded (sums them); fails on truncated or damaged pixel data
   when the image was opened with a strict fail_on. */
static inline int cvips_avg(VipsImage *in, double *out) {
    return vips_avg(in, out, NULL);
}

/* The band values of one pixel; free *vector with g_free. */
static inline int cvips_getpoint(VipsImage *in, double **vector, int *n, int x, int y) {
    return vips_getpoint(in, vector, n, x, y, NULL);
}

/* --- synthetic images -------------------------------------------------------------------- */

static inline int cvips_xyz(VipsImage **out, int width, int height) {
    return vips_xyz(out, width, height, NULL);
}

static inline int cvips_black(VipsImage **out, int width, int height, int bands) {
    return vips_black(out, width, height, "bands", bands, NULL);
}

static inline int cvips_gaussnoise(VipsImage **out, int width, int height, double mean, double sigma) {
    return vips_gaussnoise(out, width, height, "mean", mean, "sigma", sigma, NULL);
}

static inline int cvips_bandjoin_const1(VipsImage *in, VipsImage **out, double c) {
    return vips_bandjoin_const1(in, out, c, NULL);
}

static inline int cvips_bandjoin2(VipsImage *left, VipsImage *right, VipsImage **out) {
    return vips_bandjoin2(left, right, out, NULL);
}

static inline int cvips_add(VipsImage *left, VipsImage *right, VipsImage **out) {
    return vips_add(left, right, out, NULL);
}

/* out = in * a + b per band, cast to uchar. */
static inline int cvips_linear_uchar(VipsImage *in, VipsImage **out,
                                     const double *a, const double *b, int n) {
    return vips_linear(in, out, a, b, n, "uchar", TRUE, NULL);
}

/* out = in * a + b per band, as float. */
static inline int cvips_linear_float(VipsImage *in, VipsImage **out,
                                     const double *a, const double *b, int n) {
    return vips_linear(in, out, a, b, n, NULL);
}

/* --- colour and geometry for edits ----------------------------------------------------- */

static inline int cvips_rot(VipsImage *in, VipsImage **out, int quarter_turns) {
    VipsAngle angle = quarter_turns == 1 ? VIPS_ANGLE_D90 : quarter_turns == 2 ? VIPS_ANGLE_D180
        : quarter_turns == 3 ? VIPS_ANGLE_D270 : VIPS_ANGLE_D0;
    return vips_rot(in, out, angle, NULL);
}

static inline int cvips_colourspace(VipsImage *in, VipsImage **out, int space) {
    return vips_colourspace(in, out, (VipsInterpretation) space, NULL);
}

/* Drops an alpha band (flattened onto white) so edits work on 3-band colour. */
static inline int cvips_flatten_white(VipsImage *in, VipsImage **out) {
    double white[3] = { 255, 255, 255 };
    VipsArrayDouble *background = vips_array_double_new(white, 3);
    int status = vips_flatten(in, out, "background", background, NULL);
    vips_area_unref(VIPS_AREA(background));
    return status;
}

/* Converts to a colour profile ("srgb", "p3", "cmyk" built in, or a file) and attaches it. */
static inline int cvips_icc_transform(VipsImage *in, VipsImage **out, const char *profile) {
    return vips_icc_transform(in, out, profile, "embedded", TRUE, NULL);
}

static inline int cvips_cast_uchar(VipsImage *in, VipsImage **out) {
    return vips_cast(in, out, VIPS_FORMAT_UCHAR, NULL);
}

/* One 8-bit grey band (colour converted to B_W, alpha dropped). */
static inline int cvips_grey_uchar(VipsImage *in, VipsImage **out) {
    VipsImage *flat = NULL, *grey = NULL;
    int status = vips_extract_band(in, &flat, 0, "n", vips_image_hasalpha(in) ? in->Bands - 1 : in->Bands, NULL);
    if (status == 0) status = vips_colourspace(flat, &grey, VIPS_INTERPRETATION_B_W, NULL);
    if (status == 0) status = vips_cast_uchar(grey, out, NULL);
    if (flat) g_object_unref(flat);
    if (grey) g_object_unref(grey);
    return status;
}

/* --- arithmetic and geometry for Core Image (CoreImage's renderer) --------------------- */

/* out = matrix × pixel, the matrix `rows` × `cols` (cols = the input's bands). */
static inline int cvips_recomb(VipsImage *in, VipsImage **out, const double *matrix, int rows, int cols) {
    VipsImage *m = vips_image_new_matrix_from_array(cols, rows, matrix, rows * cols);
    if (!m) return -1;
    int status = vips_recomb(in, out, m, NULL);
    g_object_unref(m);
    return status;
}

static inline int cvips_gaussblur_float(VipsImage *in, VipsImage **out, double sigma) {
    return vips_gaussblur(in, out, sigma, "precision", VIPS_PRECISION_FLOAT, NULL);
}

/* The input mapped by [a b; c d] and (odx, ody) (vips' forward transform, pixel centres),
 * bilinear, into the output area (ox, oy, ow, oh); outside the input: `extend`. */
static inline int cvips_affine(VipsImage *in, VipsImage **out, double a, double b, double c, double d,
                               double odx, double ody, int ox, int oy, int ow, int oh, int extend) {
    int area[4] = { ox, oy, ow, oh };
    VipsArrayInt *oarea = vips_array_int_new(area, 4);
    VipsInterpolate *bilinear = vips_interpolate_new("bilinear");
    int status = vips_affine(in, out, a, b, c, d,
        "odx", odx, "ody", ody, "oarea", oarea, "interpolate", bilinear,
        "extend", (VipsExtend) extend, NULL);
    g_object_unref(bilinear);
    vips_area_unref(VIPS_AREA(oarea));
    return status;
}

/* The input placed at (x, y) in a width × height image; around it: `extend` (0 black, 1 copy). */
/* Text rendered with Pango: a one-band mask, 255 where the glyphs are. */
static inline int cvips_text(VipsImage **out, const char *text, int dpi) {
    return vips_text(out, text, "dpi", dpi, NULL);
}

static inline int cvips_embed(VipsImage *in, VipsImage **out, int x, int y, int width, int height, int extend) {
    return vips_embed(in, out, x, y, width, height, "extend", (VipsExtend) extend, NULL);
}

static inline int cvips_multiply(VipsImage *left, VipsImage *right, VipsImage **out) {
    return vips_multiply(left, right, out, NULL);
}

static inline int cvips_subtract(VipsImage *left, VipsImage *right, VipsImage **out) {
    return vips_subtract(left, right, out, NULL);
}

static inline int cvips_abs(VipsImage *in, VipsImage **out) {
    return vips_abs(in, out, NULL);
}

/* in ^ exponent, per band. */
static inline int cvips_pow_const(VipsImage *in, VipsImage **out, double exponent) {
    double c[1] = { exponent };
    return vips_math2_const(in, out, VIPS_OPERATION_MATH2_POW, c, 1, NULL);
}

static inline int cvips_extract_bands(VipsImage *in, VipsImage **out, int first, int n) {
    return vips_extract_band(in, out, first, "n", n, NULL);
}

/* The smallest (index 0), middle (1) or largest (2) of the first three bands, per pixel. */
static inline int cvips_band_rank3(VipsImage *in, VipsImage **out, int index) {
    VipsImage *b[3] = { NULL, NULL, NULL };
    int status = 0;
    for (int i = 0; i < 3 && status == 0; i++) status = vips_extract_band(in, &b[i], i, NULL);
    if (status == 0) status = vips_bandrank(b, out, 3, "index", index, NULL);
    for (int i = 0; i < 3; i++) if (b[i]) g_object_unref(b[i]);
    return status;
}

/* Divides by `right` (zero where it is zero). */
static inline int cvips_divide(VipsImage *left, VipsImage *right, VipsImage **out) {
    return vips_divide(left, right, out, NULL);
}

static inline int cvips_cast_float(VipsImage *in, VipsImage **out) {
    return vips_cast(in, out, VIPS_FORMAT_FLOAT, NULL);
}

/* --- saving ------------------------------------------------------------------------------ */

static inline int cvips_jpegsave_buffer(VipsImage *in, void **buf, size_t *len, int quality, int strip) {
    return vips_jpegsave_buffer(in, buf, len, "Q", quality, "strip", strip, NULL);
}

static inline int cvips_pngsave_buffer(VipsImage *in, void **buf, size_t *len, int strip, int compression) {
    return vips_pngsave_buffer(in, buf, len, "strip", strip, "compression", compression, NULL);
}

static inline int cvips_webpsave_buffer(VipsImage *in, void **buf, size_t *len, int quality,
                                        int lossless, int strip) {
    return vips_webpsave_buffer(in, buf, len, "Q", quality, "lossless", lossless, "strip", strip, NULL);
}

static inline int cvips_gifsave_buffer(VipsImage *in, void **buf, size_t *len) {
    return vips_gifsave_buffer(in, buf, len, NULL);
}

static inline int cvips_heifsave_buffer(VipsImage *in, void **buf, size_t *len, int quality,
                                        int compression, int strip) {
    return vips_heifsave_buffer(in, buf, len,
        "Q", quality,
        "compression", (VipsForeignHeifCompression) compression,
        "strip", strip,
        NULL);
}

/* --- the C heap ------------------------------------------------------------------------- */

/* Gives the free pages of every malloc arena back to the kernel; 1 when some were. */
static inline int cvips_malloc_trim(void) {
    return malloc_trim(0);
}

/* Sets glibc's mmap threshold (mallopt M_MMAP_THRESHOLD), which also stops glibc raising it and
 * the trim threshold as large blocks are freed; 1 on success. */
static inline int cvips_malloc_set_mmap_threshold(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes);
}

/* glibc's figures (mallinfo2, glibc 2.33+): bytes in use in the arenas and in mmapped chunks,
 * bytes the arenas hold (in use or free), and free bytes in them. */
static inline void cvips_malloc_statistics(size_t *in_use, size_t *arena, size_t *free_bytes) {
    struct mallinfo2 info = mallinfo2();
    *in_use = info.uordblks + info.hblkhd;
    *arena = info.arena;
    *free_bytes = info.fordblks;
}

#endif
