"use client";

import { Button } from "@/components/ui/button";
import { Field, Hint } from "@/components/ui/field";

/** Picks a logo file and hands it on as a data URL (the server checks type, size and SVG). */
export function LogoPicker({
  current,
  error,
  onPick,
}: {
  current: string | null;
  error?: string;
  onPick: (logo: string | null) => void;
}) {
  function read(file: File | undefined) {
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => onPick(typeof reader.result === "string" ? reader.result : null);
    reader.readAsDataURL(file);
  }
  return (
    <div className="mt-4 flex flex-wrap items-end gap-4">
      {current && (
        // biome-ignore lint/performance/noImgElement: the stored logo or the picked file
        <img
          src={current}
          alt="Your logo"
          className="h-16 w-auto max-w-[12rem] rounded border border-slate-200 bg-white object-contain p-1"
        />
      )}
      <Field
        label="Logo"
        type="file"
        accept="image/png,image/jpeg,image/svg+xml"
        error={error}
        onChange={(e) => read(e.target.files?.[0])}
        hint={<Hint>PNG, JPEG or SVG, at most 200 KB. Shown on the checkout, PDF and emails.</Hint>}
      />
      {current && (
        <Button variant="ghost" onClick={() => onPick(null)}>
          Remove logo
        </Button>
      )}
    </div>
  );
}
