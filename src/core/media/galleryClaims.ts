// A gallery holds the media of one gallery field of one spot. Files are matched against what a
// gallery holds by content, or by count where the journal has not followed the gallery, so a second
// field or a second spot uploading into it would have its files taken for the first one's uploads
// and never sent; and uploads into one gallery from two spots at once could not be settled (see
// lostUpload.ts). The rule, in one place: between the fields of one document (the media check makes
// it a problem of the document) and between the documents of one run (the engine refuses the later).

/** A gallery field with media, as the media check plans it: null, or the gallery id it names. */
interface NamedGallery {
  field: string;
  value: number | null;
}

/** Each field with media that names the gallery of an earlier one (in the given order), with that earlier field. */
export function galleriesNamedTwice(plans: readonly NamedGallery[]): Array<{ field: string; earlier: string; galleryId: number }> {
  const first = new Map<number, string>();
  const twice: Array<{ field: string; earlier: string; galleryId: number }> = [];
  for (const { field, value } of plans) {
    if (value === null) continue;
    const earlier = first.get(value);
    if (earlier === undefined) first.set(value, field);
    else twice.push({ field, earlier, galleryId: value });
  }
  return twice;
}

/** The documents of one run that name each gallery for their media: first come, first served. */
export class RunGalleryClaims {
  private readonly claims = new Map<number, string>();

  /**
   * Claims a gallery for the document at `path`: the path of an earlier document of the run that
   * has it, else undefined. A spot whose journal record names the gallery (`owned`) always gets it.
   * A document naming one gallery in two fields never gets here (the media check refused it), so
   * a second claim from the same path is another document's, refused like any other.
   */
  claim(galleryId: number, path: string, owned: boolean): string | undefined {
    const earlier = this.claims.get(galleryId);
    if (owned || earlier === undefined) this.claims.set(galleryId, path);
    return owned ? undefined : earlier;
  }
}
