import { FieldLabel, Input, NativeSelect } from "@/components/ui/input";

/** The Name and Items fields every "create dataset" form starts with (form fields `name` and `kind`). */
export function DatasetNameFields({
  defaultKind,
  placeholder,
  invalid,
  autoFocus = false,
}: {
  defaultKind: "trajectory" | "segment";
  placeholder: string;
  invalid: boolean;
  autoFocus?: boolean;
}) {
  return (
    <>
      <FieldLabel>
        Name
        <Input
          name="name"
          required
          pattern="[\w.\-]+"
          maxLength={100}
          placeholder={placeholder}
          autoFocus={autoFocus}
          aria-invalid={invalid}
          className="w-56"
        />
      </FieldLabel>
      <FieldLabel>
        Items
        <NativeSelect name="kind" defaultValue={defaultKind}>
          <option value="trajectory">Whole trajectories</option>
          <option value="segment">Recovery segments (passed attempts)</option>
        </NativeSelect>
      </FieldLabel>
    </>
  );
}
