/* heif_floor: in-process libheif decode of every file to 8-bit interleaved RGB, pixels discarded.
   usage: heif_floor [-s SIZE] FILE...      build: cc -O2 -o heif_floor heif_floor.c -lheif
   With -s SIZE (the thumbnail box, e.g. 256): the smallest thumbnail item (thmb) whose longer
   side is over SIZE when there is one, else the primary image, as libvips' thumbnailer chooses
   (it uses a HEIF's thumbnail when that needs no upscaling to fit the box); the HEIC
   counterpart of decode_floor's 1/8 scale. Without -s (or -s 0): the primary image at full size.
   One decoding thread (heif_context_set_max_decoding_threads 1), like the JPEG floor: the jobs
   run side by side instead. This is the floor for any libheif-based thumbnailer: HEVC decode of
   the chosen image + YCbCr -> RGB; no resize, nothing written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libheif/heif.h>

static int fail(const char *file, const char *what, struct heif_error e) {
  fprintf(stderr, "%s: %s: %s\n", file, what, e.message ? e.message : "?");
  return 1;
}

int main(int argc, char **argv) {
  int size = 0, i = 1, i0, thumbnails = 0; unsigned long px = 0;
  if (argc > 2 && !strcmp(argv[1], "-s")) { size = atoi(argv[2]); i = 3; }
  for (i0 = i; i < argc; i++) {
    struct heif_context *ctx = heif_context_alloc();
    heif_context_set_max_decoding_threads(ctx, 1);
    struct heif_error e = heif_context_read_from_file(ctx, argv[i], NULL);
    if (e.code) return fail(argv[i], "read", e);
    struct heif_image_handle *primary = NULL, *chosen = NULL;
    e = heif_context_get_primary_image_handle(ctx, &primary);
    if (e.code) return fail(argv[i], "primary image", e);
    if (size > 0) {
      int n = heif_image_handle_get_number_of_thumbnails(primary);
      heif_item_id ids[16];
      if (n > 16) n = 16;
      n = heif_image_handle_get_list_of_thumbnail_IDs(primary, ids, n);
      int best = 0;
      for (int t = 0; t < n; t++) {
        struct heif_image_handle *thumb = NULL;
        if (heif_image_handle_get_thumbnail(primary, ids[t], &thumb).code) continue;
        int w = heif_image_handle_get_width(thumb), h = heif_image_handle_get_height(thumb);
        int longer = w > h ? w : h;
        if (longer > size && (!chosen || longer < best)) {
          if (chosen) heif_image_handle_release(chosen);
          chosen = thumb; best = longer;
        } else {
          heif_image_handle_release(thumb);
        }
      }
    }
    if (chosen) thumbnails++;
    struct heif_image_handle *handle = chosen ? chosen : primary;
    struct heif_image *image = NULL;
    e = heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, NULL);
    if (e.code) return fail(argv[i], "decode", e);
    px += (unsigned long)heif_image_get_width(image, heif_channel_interleaved) * heif_image_get_height(image, heif_channel_interleaved);
    heif_image_release(image);
    if (chosen) heif_image_handle_release(chosen);
    heif_image_handle_release(primary);
    heif_context_free(ctx);
  }
  fprintf(stderr, "decoded %d files (%d from a thumbnail item), %lu output pixels\n", argc - i0, thumbnails, px);
  return 0;
}
