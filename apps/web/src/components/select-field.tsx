import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import NativeSelect from '@mui/material/NativeSelect';
import OutlinedInput from '@mui/material/OutlinedInput';

/**
 * A labelled native select for filters. The browser's own list keeps it light: MUI's Select would bring its menus
 * and popovers to pages that otherwise do without them.
 */
export function SelectField({
  id,
  label,
  value,
  onChange,
  options,
  size = 'small',
  minWidth = 200,
}: {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  options: Array<{ value: string; label: string }>;
  size?: 'small' | 'medium';
  minWidth?: number;
}) {
  return (
    <FormControl size={size} sx={{ minWidth }}>
      <InputLabel htmlFor={id} shrink>
        {label}
      </InputLabel>
      <NativeSelect
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        input={<OutlinedInput label={label} notched />}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </NativeSelect>
    </FormControl>
  );
}
