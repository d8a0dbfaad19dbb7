"use client";

import { useEffect, useState } from "react";

/**
 * `value` as a QR code: an SVG made in the browser by the `qrcode` package, shown as an image
 * (black on white with a quiet zone, so phone cameras read it in dark mode too).
 */
export function QrCode({
  value,
  label,
  size = 224,
}: {
  value: string;
  label: string;
  size?: number;
}) {
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    setSrc(null);
    setFailed(false);
    import("qrcode")
      .then(({ default: QRCode }) =>
        QRCode.toString(value, { type: "svg", margin: 4, errorCorrectionLevel: "M" }),
      )
      .then((svg) => {
        if (live) setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
      })
      .catch(() => {
        if (live) setFailed(true);
      });
    return () => {
      live = false;
    };
  }, [value]);

  if (failed) return <p className="text-sm text-red-700">The QR code could not be drawn.</p>;
  if (!src) return <p className="text-sm text-slate-500 dark:text-slate-400">Drawing QR code…</p>;
  return (
    <figure className="inline-block rounded-md bg-white p-2">
      {/* biome-ignore lint/performance/noImgElement: a data: URL needs no image optimisation */}
      <img src={src} alt={label} width={size} height={size} data-testid="qr-code" />
      <figcaption className="mt-1 max-w-[224px] break-all text-center text-xs text-slate-600">
        {value}
      </figcaption>
    </figure>
  );
}
