"use client";

import { Alert } from "@/components/ui/card";
import { Loading, PageHeader } from "@/components/ui/page";
import { useResource } from "@/lib/client/use-resource";
import type { ProfileBody } from "@/lib/schemas/profile";
import { ProfileForm } from "./profile-form";

/** /settings/profile: the business profile new invoices, the checkout, PDFs and emails use. */
export function ProfileView() {
  const { data, setData, error, loading } = useResource<ProfileBody>("/api/profile");
  return (
    <div className="space-y-6">
      <PageHeader
        title="Profile"
        description="Your name, company and logo on invoices, the checkout, PDFs and emails, and the defaults new invoices start with."
      />
      {error && <Alert>{error}</Alert>}
      {loading && !data && <Loading what="your profile" />}
      {data && <ProfileForm profile={data} onSaved={setData} />}
    </div>
  );
}
