import { Group, Radio } from '@mantine/core';

/** One of a few options as radio buttons in a row, under the group's label. */
export function RadioChoice<V extends string>({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: V;
  onChange: (value: V) => void;
  options: readonly { value: V; label: string }[];
}) {
  return (
    <Radio.Group
      label={label}
      value={value}
      onChange={(chosen) => {
        const option = options.find((candidate) => candidate.value === chosen);
        if (option) onChange(option.value);
      }}
    >
      <Group gap="lg" mt="xs">
        {options.map((option) => (
          <Radio key={option.value} value={option.value} label={option.label} />
        ))}
      </Group>
    </Radio.Group>
  );
}
