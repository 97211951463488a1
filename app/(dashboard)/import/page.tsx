import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { getPageContext } from "@/lib/services/page-context";
import { PAGE_PERMISSIONS } from "@/lib/domain/authz";
import { Code } from "@/components/ui/code";
import { UploadDropzone } from "@/components/import/upload-dropzone";
import { getEnv } from "@/lib/env";

export const metadata: Metadata = { title: "Import" };
export const dynamic = "force-dynamic";

export default async function ImportPage() {
  await getPageContext(PAGE_PERMISSIONS["/import"]);
  return (
    <>
      <PageHeader
        title="Import"
        description={
          <>
            Bring trajectories in from your harness. Large folders import faster from the command line:{" "}
            <Code>npm run reterm -- import path/to/jobs</Code>.
          </>
        }
      />
      <UploadDropzone maxMb={getEnv().RETERM_MAX_UPLOAD_MB} />
    </>
  );
}
